package registry

import "github.com/scenecs/scenecs/registry/schema"

// The types of a component's values and their text live in package
// [schema]; these aliases keep the names a component is written with
// (registry.Vec3, registry.Schema, ...) as they were.
type (
	// Vec2 is [schema.Vec2].
	Vec2 = schema.Vec2
	// Vec3 is [schema.Vec3].
	Vec3 = schema.Vec3
	// Vec4 is [schema.Vec4].
	Vec4 = schema.Vec4
	// Color is [schema.Color].
	Color = schema.Color
	// SelectorText is [schema.SelectorText].
	SelectorText = schema.SelectorText
	// SelectorAllText is [schema.SelectorAllText].
	SelectorAllText = schema.SelectorAllText
	// Ref is [schema.Ref]: a reference to one entity (property type
	// entity).
	Ref = schema.Ref
	// Refs is [schema.Refs]: a list of references (property type
	// entities).
	Refs = schema.Refs
	// OnDelete is [schema.OnDelete].
	OnDelete = schema.OnDelete
	// Pairs is [schema.Pairs].
	Pairs = schema.Pairs
	// Pair is [schema.Pair].
	Pair = schema.Pair
	// Type is [schema.Type].
	Type = schema.Type
	// Types is [schema.Types].
	Types = schema.Types
	// Property is [schema.Property].
	Property = schema.Property
	// Schema is [schema.Schema].
	Schema = schema.Schema
	// PropSpec is [schema.PropSpec].
	PropSpec = schema.PropSpec
	// PropValue is [schema.PropValue].
	PropValue = schema.PropValue
	// Patch is [schema.Patch].
	Patch = schema.Patch
	// ValueError is [schema.ValueError].
	ValueError = schema.ValueError
	// AttrError is [schema.AttrError].
	AttrError = schema.AttrError
	// AttrErrors is [schema.AttrErrors].
	AttrErrors = schema.AttrErrors
	// AttrErrorKind is [schema.AttrErrorKind].
	AttrErrorKind = schema.AttrErrorKind
	// SchemaError is [schema.SchemaError].
	SchemaError = schema.SchemaError
	// Mixin is [schema.Mixin].
	Mixin = schema.Mixin
	// NamedPatch is [schema.NamedPatch].
	NamedPatch = schema.NamedPatch
	// MixinError is [schema.MixinError].
	MixinError = schema.MixinError
)

// The onDelete policies of reference properties ([schema.OnDelete]).
const (
	// Clear is [schema.Clear].
	Clear = schema.Clear
	// Destroy is [schema.Destroy].
	Destroy = schema.Destroy
	// RemoveComponent is [schema.Remove] (Remove is the Registry's
	// method's name).
	RemoveComponent = schema.Remove
)
