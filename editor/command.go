package editor

import "encoding/json"

// Line is one line of a journal (JSON lines, see docs/inspector.md): a
// command as it was asked for, stamped with the ticks that had run when
// it was applied. Only commands that succeeded are written.
type Line struct {
	// Tick counts the ticks run before the command was applied.
	Tick uint64 `json:"tick"`
	// Op is "set", "remove", "create", "destroy", "clone", "reparent",
	// "emit", "revert" (a prefab instance's override dropped), "apply"
	// (an instance's value pushed into its prefab), "variant", "undo" or
	// "redo"; "reload" marks a hot reload that changed
	// the scene (a replay cannot make it again).
	Op string `json:"op"`
	// Ref is the entity's reference when the command was made.
	Ref       string `json:"ref,omitempty"`
	Component string `json:"component,omitempty"`
	// Property is the property a revert or apply names ("": the whole
	// component), or the part of the component a set gives alone
	// ([Set].Path: "speed", "x", "axis.y").
	Property string `json:"property,omitempty"`
	// Attr is the attribute string of a set (with Property, the value of
	// that part alone).
	Attr string `json:"attr,omitempty"`
	// Save: the command was asked to be saved into the scene's files (a
	// replay never writes files: it makes the change without saving).
	Save bool `json:"save,omitempty"`
	// Body is the JSON body of a create (as POST /api/entities took it).
	Body json.RawMessage `json:"body,omitempty"`
	// ID is the id asked for a clone.
	ID string `json:"id,omitempty"`
	// Name is the new prefab's name of a variant.
	Name string `json:"name,omitempty"`
	// Parent is the new parent of a reparent ("" for the root).
	Parent string `json:"parent,omitempty"`
	// Event, Detail and NoBubbles describe an event sent (emit).
	Event     string          `json:"event,omitempty"`
	Detail    json.RawMessage `json:"detail,omitempty"`
	NoBubbles bool            `json:"noBubbles,omitempty"`
}

// Command is one change [Editor.Apply] makes. Each command type states
// what it checks, the file edit it prepares when asked to save (through
// the scene's [live.Saver]), its change to the World, and the history
// [Entry] that undoes and redoes it.
type Command interface {
	// Line returns the journal line that asks for the command.
	Line() Line
	// do checks the command and makes it through Editor.run, returning
	// what it did and its history entry (nil: none, for undo and redo).
	do(ed *Editor) (*Result, *Entry, error)
}

// Set sets component Component of entity Ref from the attribute string
// Attr, as a scene file would (merged with the current data; init on
// add, update(old) on change).
//
// With Path, Attr is the value of that part of the component alone: a
// property ("speed" of spin, Attr "20"), or axes of a vector ("x" or
// "xz" of a single-property vector component such as position, "axis.y"
// of a property; Attr "5" or "5 7", a number per axis in the path's
// order). The World's other axes stay as the World has them; saved, the
// file gets the property with its other axes as the file gives them, so
// that a value the simulation moved (an animated y) never reaches it.
type Set struct {
	Ref, Component, Attr string
	Path                 string
	Save                 bool
}

// Remove removes component Component of entity Ref.
type Remove struct {
	Ref, Component string
	Save           bool
}

// Create makes the entity the JSON Body describes ({"parent": REF,
// "id": ID, "class": "a b", "mixin": "m", "components": {"name":
// "attribute string"}}); everything is checked first.
type Create struct {
	Body json.RawMessage
	Save bool
}

// Destroy destroys entity Ref and its subtree.
type Destroy struct {
	Ref  string
	Save bool
}

// Clone copies entity Ref and its subtree right after it among its
// siblings: the copy gets the id ID, or none if the original has none,
// or the original's id with the first free suffix -2, -3, ...; ids below
// it get free suffixes alike.
type Clone struct {
	Ref, ID string
	Save    bool
}

// Reparent moves entity Ref under Parent ("" for the root), last among
// its new siblings, keeping its own (local) transform.
type Reparent struct {
	Ref, Parent string
	Save        bool
}

// Emit sends event Event, with the JSON Detail ("null" or empty for
// none), to entity Ref, bubbling unless NoBubbles; what its handlers do
// is recorded, so that undo puts it back.
type Emit struct {
	Ref, Event string
	Detail     json.RawMessage
	NoBubbles  bool
}

// Revert gives component Component (or only its property Property) of
// the prefab instance Ref its prefab's value again.
type Revert struct {
	Ref, Component, Property string
	Save                     bool
}

// ApplyPrefab writes the value of component Component (or its property
// Property) of instance Ref into its prefab in the scene file: every
// instance that does not write it itself follows. It must be saved.
type ApplyPrefab struct {
	Ref, Component, Property string
	Save                     bool
}

// Variant adds prefab Name to the scene file: a variant of the prefab
// instance Ref is made from, with what the instance tunes. It must be
// saved.
type Variant struct {
	Ref, Name string
	Save      bool
}

// Undo undoes the last applied entry of the history.
type Undo struct{}

// Redo makes the first undone entry of the history again.
type Redo struct{}

// Line returns the journal line of c.
func (c *Set) Line() Line {
	return Line{Op: "set", Ref: c.Ref, Component: c.Component, Property: c.Path, Attr: c.Attr, Save: c.Save}
}

// Line returns the journal line of c.
func (c *Remove) Line() Line {
	return Line{Op: "remove", Ref: c.Ref, Component: c.Component, Save: c.Save}
}

// Line returns the journal line of c.
func (c *Create) Line() Line { return Line{Op: "create", Body: c.Body, Save: c.Save} }

// Line returns the journal line of c.
func (c *Destroy) Line() Line { return Line{Op: "destroy", Ref: c.Ref, Save: c.Save} }

// Line returns the journal line of c.
func (c *Clone) Line() Line { return Line{Op: "clone", Ref: c.Ref, ID: c.ID, Save: c.Save} }

// Line returns the journal line of c.
func (c *Reparent) Line() Line {
	return Line{Op: "reparent", Ref: c.Ref, Parent: c.Parent, Save: c.Save}
}

// Line returns the journal line of c.
func (c *Emit) Line() Line {
	return Line{Op: "emit", Ref: c.Ref, Event: c.Event, Detail: c.Detail, NoBubbles: c.NoBubbles}
}

// Line returns the journal line of c.
func (c *Revert) Line() Line {
	return Line{Op: "revert", Ref: c.Ref, Component: c.Component, Property: c.Property, Save: c.Save}
}

// Line returns the journal line of c.
func (c *ApplyPrefab) Line() Line {
	return Line{Op: "apply", Ref: c.Ref, Component: c.Component, Property: c.Property, Save: c.Save}
}

// Line returns the journal line of c.
func (c *Variant) Line() Line { return Line{Op: "variant", Ref: c.Ref, Name: c.Name, Save: c.Save} }

// Line returns the journal line of c.
func (Undo) Line() Line { return Line{Op: "undo"} }

// Line returns the journal line of c.
func (Redo) Line() Line { return Line{Op: "redo"} }

// Decode returns the command a journal line asks for; an unknown op
// (or "reload", "end", which no command makes again) is an [Invalid]
// [*Error].
func Decode(l Line) (Command, error) {
	switch l.Op {
	case "set":
		return &Set{Ref: l.Ref, Component: l.Component, Path: l.Property, Attr: l.Attr, Save: l.Save}, nil
	case "remove":
		return &Remove{Ref: l.Ref, Component: l.Component, Save: l.Save}, nil
	case "create":
		return &Create{Body: l.Body, Save: l.Save}, nil
	case "destroy":
		return &Destroy{Ref: l.Ref, Save: l.Save}, nil
	case "clone":
		return &Clone{Ref: l.Ref, ID: l.ID, Save: l.Save}, nil
	case "reparent":
		return &Reparent{Ref: l.Ref, Parent: l.Parent, Save: l.Save}, nil
	case "emit":
		return &Emit{Ref: l.Ref, Event: l.Event, Detail: l.Detail, NoBubbles: l.NoBubbles}, nil
	case "revert":
		return &Revert{Ref: l.Ref, Component: l.Component, Property: l.Property, Save: l.Save}, nil
	case "apply":
		return &ApplyPrefab{Ref: l.Ref, Component: l.Component, Property: l.Property, Save: l.Save}, nil
	case "variant":
		return &Variant{Ref: l.Ref, Name: l.Name, Save: l.Save}, nil
	case "undo":
		return Undo{}, nil
	case "redo":
		return Redo{}, nil
	}
	return nil, fail(Invalid, "unknown command %q", l.Op)
}
