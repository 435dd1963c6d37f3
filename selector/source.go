package selector

import (
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
)

// Source is what the compiler and matcher need to know about a World's
// components, ids and classes. *registry.Registry implements it; the
// selector package does not depend on the registry.
//
// Ids and classes live outside ecs components, so the Source answers for
// them. Component data is read straight from ecs storage through the
// functions of a [PropertyReader].
type Source interface {
	// World returns the World the selectors run on.
	World() *ecs.World

	// ComponentIDs resolves a component name as written in `[comp]`:
	// a plain name, a base name of a multiple-instance component (which
	// stands for the base and every instance registered so far), or an
	// instance name `base__inst`. The result lists the ecs IDs any one of
	// which makes the entity have the component. A known name with no
	// storage yet (an instance never used) gives no IDs and no error:
	// it matches nothing until the instance appears. An unknown name is
	// an error whose text the compiler reports at the attribute's column,
	// such as `unknown component "helth" (did you mean "health"?)`.
	//
	// Selectors call ComponentIDs again whenever the World's number of
	// components grows, so that instances registered later are seen.
	ComponentIDs(name string) ([]ecs.ID, error)

	// PropertyReader resolves `comp.prop` (or, with prop == "", the one
	// property of a single-property component, as in `[comp=value]`). prop
	// may name a vector axis (`position.y`), or be `prop.axis` for an axis
	// of a vector property (`[world.position.y<0]`). comp may be a base or
	// instance name; every instance of a component shares the schema, so
	// one reader serves them all. Errors (unknown property, a
	// multi-property component compared whole, a tag) are reported at the
	// attribute's column.
	PropertyReader(comp, prop string) (PropertyReader, error)

	// EntityID returns e's id, or "" if it has none.
	EntityID(e ecs.Entity) string
	// EntityByID returns the live entity whose id is id.
	EntityByID(id string) (ecs.Entity, bool)
	// HasClass reports whether e's class list contains class.
	HasClass(e ecs.Entity, class string) bool
	// ClassMembers returns the entities whose class list contains class,
	// in any order. The selector only reads the slice and does not keep
	// it beyond the call.
	ClassMembers(class string) []ecs.Entity
}

// Kind classifies a property's value for comparison.
type Kind int

// Property kinds. Number and Int compare as numbers ([PropertyReader.Num]);
// Bool as true/false (Bool); String and Other as text (Str).
// Other is any other type (vectors compared whole, colours, arrays), read
// as its printed text.
const (
	KindOther Kind = iota
	KindNumber
	KindInt
	KindBool
	KindString
)

var kindNames = [...]string{"other", "number", "int", "bool", "string"}

// String returns the kind's name.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// PropertyReader reads one property of a component for value tests such
// as `[health.hp<20]`: its kind and a function that takes the pointer to a
// component value in ecs storage ([ecs.World.GetPtr], [ecs.Query.Ptr]) and
// returns the property's value. Exactly the function matching Kind is set:
// Num for KindNumber and KindInt, Bool for KindBool, Str for KindString and
// KindOther. (The schema's description of a property is the registry's
// Property; this is only the reading side a Source hands the selector.)
//
// When the value is a plain field of the component value, Field and Offset
// say so: the compiler then turns a value test into a loop over the packed
// column that loads the field itself, instead of calling the reading
// function once per entity. The reading function must still be set, and
// must return what the field holds (converted to float64 for a number).
type PropertyReader struct {
	Kind Kind
	// Type names the property's type for error messages ("int", "vec3").
	Type string
	Num  func(p unsafe.Pointer) float64
	Bool func(p unsafe.Pointer) bool
	Str  func(p unsafe.Pointer) string

	// Field is the Go type the value is stored as, NoField if it is not a
	// plain field (it is printed, joined or converted by the reading
	// function). A numeric field needs KindNumber or KindInt, FieldBool
	// KindBool, FieldString KindString; the compiler refuses others.
	Field FieldType
	// Offset is the field's byte offset in the component value.
	Offset uintptr
}

// FieldType is the Go type a property is stored as, for
// [PropertyReader.Field].
type FieldType uint8

// The field types. FieldFloat64 to FieldUintptr are numbers (read as
// float64, as [PropertyReader.Num] reads them), FieldBool a bool,
// FieldString a string (or a type whose underlying type is one of these).
const (
	NoField FieldType = iota
	FieldFloat64
	FieldFloat32
	FieldInt
	FieldInt8
	FieldInt16
	FieldInt32
	FieldInt64
	FieldUint
	FieldUint8
	FieldUint16
	FieldUint32
	FieldUint64
	FieldUintptr
	FieldBool
	FieldString
)

var fieldNames = [...]string{"none", "float64", "float32", "int", "int8", "int16", "int32", "int64",
	"uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "bool", "string"}

// String returns the Go name of the field type ("none" for NoField).
func (t FieldType) String() string {
	if int(t) < len(fieldNames) {
		return fieldNames[t]
	}
	return "?"
}

// numeric reports whether t is one of the number types.
func (t FieldType) numeric() bool { return t >= FieldFloat64 && t <= FieldUintptr }

// Relations is implemented by a [Source] whose components may hold
// references to entities (properties of the registry's types entity and
// entities): it serves `[docked=#p1]`, `:to(docked, ...)` and
// `:from(docked, ...)`. A Source without it has no relations: selectors
// that name one are an error at the relation's column.
type Relations interface {
	// Relation resolves REL as a selector writes it: a component whose
	// single property holds references (`docked`), or `comp.prop` for
	// one property of a component with several. An unknown name, or a
	// property that holds no references, is an error whose text the
	// compiler reports at REL's column.
	Relation(rel string) (Relation, error)
}

// Relation reads one property that holds references to entities, both
// ways: from a holder to its targets, and from a target to its holders
// (an index the Source keeps, so that neither way scans the World).
// References to dead entities are never returned (handles carry a
// generation, as [ecs.Entity] does).
type Relation struct {
	// IDs are the ecs IDs of the component that holds the property (as
	// [Source.ComponentIDs] gives them): an entity without one of them
	// has no targets.
	IDs []ecs.ID
	// Targets appends to dst the live entities e points at through the
	// property (one for an entity property, any number for a list), in
	// the order the property holds them, and returns dst.
	Targets func(e ecs.Entity, dst []ecs.Entity) []ecs.Entity
	// Holders appends to dst the live entities whose property points at
	// target, in any order (each once), and returns dst.
	Holders func(target ecs.Entity, dst []ecs.Entity) []ecs.Entity
}
