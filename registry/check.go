package registry

import (
	"strings"
	"unsafe"

	"github.com/scenecs/scenecs/internal/quote"
	"github.com/scenecs/scenecs/registry/schema"
)

// This file holds the hook that lets a component check its data where a
// scene file gives it (Definition.Check), and the placing of what the
// hook refuses inside the attribute string or mapping it was parsed from.

// CheckContext is what a component's Check hook receives.
type CheckContext struct {
	// Registry is the Registry the component is registered in.
	Registry *Registry
	// Name is the component's name as written, an instance's included
	// (on__click), when the caller knows it.
	Name string
	// Schema returns the schema of the component name (a base name or
	// name__instance) as the data being checked sees it: a scene being
	// compiled also sees the components it declares. ok is false for a
	// name nothing registers or declares.
	Schema func(name string) (s *Schema, ok bool)
	// Names, if set, returns the names Schema knows, for suggestions
	// ("did you mean"); if nil, the Registry's names are.
	Names func() []string
	// Prefabs, if set, returns the names of the prefabs the data being
	// checked can name (a scene's own among them); if nil, the
	// Registry's are (see [CheckContext.PrefabNames]).
	Prefabs func() []string
	// Reads, if set, is called by a Check hook for each component its
	// data reads from its own entity (an on's or a bind's expressions),
	// with the error to report, placed as the hook's own errors are,
	// should the entity lack it: the loader, which knows the entity's
	// components, reports those it lacks.
	Reads func(component string, missing *PropError)
}

// PrefabNames returns the names of the prefabs the data being checked
// can name: cx.Prefabs(), or the Registry's.
func (cx *CheckContext) PrefabNames() []string {
	if cx.Prefabs != nil {
		return cx.Prefabs()
	}
	return cx.Registry.Prefabs().Names()
}

// ComponentNames returns the names of the components the data being
// checked can name: cx.Names(), or the Registry's.
func (cx *CheckContext) ComponentNames() []string {
	if cx.Names != nil {
		return cx.Names()
	}
	return cx.Registry.Names()
}

// A PropError is what a Check hook returns for a property value it
// refuses: which property, the offending text and where it starts in the
// property's value as written (trimmed), and what was expected.
// [Component.CheckAttr] and [Component.CheckMap] turn it into an
// [*AttrError] placed in the attribute string or mapping, which the
// loader reports at file:line:col.
type PropError struct {
	// Property is the property's name in the schema ("" for the single
	// property of a single-property component).
	Property string
	// Text is the offending text, a part of the property's value.
	Text string
	// Offset is the byte offset of Text in the property's value.
	Offset int
	// Expected says what would have been accepted, as a noun phrase.
	Expected string
	// Msg, if set, is the message in its own words, in place of
	// `invalid value "TEXT": expected EXPECTED` (see [AttrError.Msg]).
	Msg string
	// Err, if set, is the error behind it (a property type's
	// [*ValueError], say), for errors.As.
	Err error
}

// Unwrap returns Err.
func (e *PropError) Unwrap() error { return e.Err }

// Error returns `property "to": invalid value "1 x": expected a vec3`,
// or `property "to": MSG`.
func (e *PropError) Error() string {
	var b strings.Builder
	if e.Property != "" {
		b.WriteString("property ")
		b.WriteString(quote.String(e.Property))
		b.WriteString(": ")
	}
	if e.Msg != "" {
		b.WriteString(e.Msg)
		return b.String()
	}
	b.WriteString("invalid value ")
	b.WriteString(quote.String(e.Text))
	b.WriteString(": expected ")
	b.WriteString(e.Expected)
	return b.String()
}

// HasCheck reports whether the component has a Check hook.
func (c *Component) HasCheck() bool { return c.hooks.check != nil }

// check runs the Check hook on the schema's defaults with patch written
// over them.
func (c *Component) check(cx *CheckContext, patch Patch) error {
	if c.hooks.check == nil {
		return nil
	}
	v := c.newValue()
	c.apply(v, patch)
	return c.hooks.check(cx, unsafe.Pointer(v))
}

// CheckAttr runs the component's Check hook (if any) on the data patch
// gives, patch having been parsed from the attribute string text by
// [Schema.ParseAttr] for the component (or instance) name. A
// [*PropError] the hook returns becomes an [*AttrError] (InvalidValue)
// whose Offset is in text, where the property's value is given (its last
// occurrence, which is the one that counts), or 0 if text does not give
// it. Other errors are returned as they are.
func (c *Component) CheckAttr(cx *CheckContext, name, text string, patch Patch) error {
	err := c.check(cx, patch)
	pe, ok := err.(*PropError)
	if !ok {
		return err
	}
	return c.PlaceAttr(name, text, pe)
}

// PlaceAttr places pe in the attribute string text of the component (or
// instance) name, as [Component.CheckAttr] places its hook's errors.
func (c *Component) PlaceAttr(name, text string, pe *PropError) *AttrError {
	ae := c.attrError(name, pe)
	if at, ok := c.Schema.ValueAt(text, ae.Property); ok {
		ae.Offset += at
	} else {
		ae.Offset = 0
	}
	return ae
}

// CheckMap is [Component.CheckAttr] for data parsed from the key/value
// pairs kv by [Schema.ParseMap]: the AttrError's Pair is the pair that
// gives the property (the last), its Offset in that pair's value; Pair
// is -1 and Offset 0 when kv does not give it. For a component whose
// single property takes the whole mapping ([Schema.TakesMap]), the
// PropError's Property names the pair by its key as written.
func (c *Component) CheckMap(cx *CheckContext, name string, kv [][2]string, patch Patch) error {
	err := c.check(cx, patch)
	pe, ok := err.(*PropError)
	if !ok {
		return err
	}
	return c.PlaceMap(name, kv, pe)
}

// PlaceMap places pe in the key/value pairs kv of the component (or
// instance) name, as [Component.CheckMap] places its hook's errors.
func (c *Component) PlaceMap(name string, kv [][2]string, pe *PropError) *AttrError {
	ae := c.attrError(name, pe)
	ae.Pair, ae.Offset = c.Schema.PairValueAt(kv, ae.Property)
	if ae.Pair >= 0 {
		ae.Offset += pe.Offset
	}
	return ae
}

// attrError turns a PropError into an AttrError with the offset of the
// PropError (in the property's value).
func (c *Component) attrError(name string, pe *PropError) *AttrError {
	return &AttrError{Kind: schema.InvalidValue, Component: name, Property: pe.Property, Text: pe.Text,
		Expected: pe.Expected, Msg: pe.Msg, Offset: pe.Offset, Pair: -1, Err: pe}
}
