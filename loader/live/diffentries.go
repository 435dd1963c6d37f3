package live

import (
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// DiffKind says what one [DiffEntry] reports.
type DiffKind uint8

// The kinds of DiffEntry.
const (
	// EntityCreated: the reload creates the entity.
	EntityCreated DiffKind = iota + 1
	// EntityDestroyed: the reload destroys the entity.
	EntityDestroyed
	// EntityMoved: the entity gets another parent or place among its
	// siblings.
	EntityMoved
	// ComponentAdded: the component is attached; New is its value as
	// the file gives it (an attribute string, empty for a tag).
	ComponentAdded
	// ComponentRemoved: the component is detached; Old is its value as
	// the file gave it.
	ComponentRemoved
	// PropertyChanged: one property of a component changes from Old to
	// New (the file's values, printed; a property no longer given goes
	// back to its default).
	PropertyChanged
	// ClassChanged: the class list changes from Old to New
	// (space-separated).
	ClassChanged
	// SystemChanged: one property of a scene-level system setting
	// changes (Component is the system's name).
	SystemChanged
	// DeclChanged: a component declaration is new or its schema changed
	// (New says which).
	DeclChanged
	// MixinChanged: a mixin is new, changed or removed (New says which;
	// Component is the mixin's id).
	MixinChanged
	// PrefabChanged: a prefab is new, changed or removed (New says
	// which; Component is the prefab's name). What the change does to
	// its instances comes in entries of their own.
	PrefabChanged
)

var diffKindNames = [...]string{
	EntityCreated:    "created",
	EntityDestroyed:  "destroyed",
	EntityMoved:      "moved",
	ComponentAdded:   "added",
	ComponentRemoved: "removed",
	PropertyChanged:  "changed",
	ClassChanged:     "class",
	SystemChanged:    "system",
	DeclChanged:      "declaration",
	MixinChanged:     "mixin",
	PrefabChanged:    "prefab",
}

// String returns the kind's name as JSON writes it: "created",
// "destroyed", "moved", "added", "removed", "changed", "class", "system",
// "declaration", "mixin" or "prefab".
func (k DiffKind) String() string {
	if int(k) < len(diffKindNames) && diffKindNames[k] != "" {
		return diffKindNames[k]
	}
	return "unknown"
}

// MarshalText writes the kind's name (see String).
func (k DiffKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name (see String).
func (k *DiffKind) UnmarshalText(b []byte) error {
	for i, name := range diffKindNames {
		if name != "" && name == string(b) {
			*k = DiffKind(i)
			return nil
		}
	}
	return fmt.Errorf("loader: unknown diff entry kind %q", b)
}

// DiffEntry is one line of what a reload changes: an entity created,
// destroyed or moved, a component added or removed, or one property of one
// component going from an old value to a new one. Values are printed with
// the registry's printers, as a scene file writes them.
type DiffEntry struct {
	Kind DiffKind `json:"kind"`
	// Entity names the entity: "#id" for an entity with an id, else its
	// path (child indexes from the nearest ancestor with an id, or from
	// the roots, joined by "/", as EntityPath writes it). Empty for
	// system settings, declarations and mixins.
	Entity string `json:"entity,omitempty"`
	// Component is the component (or instance, name__id), the system
	// or the mixin concerned; the declared component for DeclChanged.
	Component string `json:"component,omitempty"`
	// Property is the property's name; empty for the value of a
	// single-property component.
	Property string `json:"property,omitempty"`
	// Old and New are the printed values before and after.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Pos is where the entity is written in the new file (in the old one
	// for a destroyed entity); the zero Pos for the other kinds.
	Pos scenefile.Pos `json:"-"`
}

// String returns the entry as one line, such as (one per kind):
//
//	~ #goblin-1 health.hp 40 → 25
//	~ #wreck position 0 15 0 → 0 16 0
//	+ #goblin-2
//	- field/3
//	> #ship
//	~ #ship +health hp: 5
//	~ #ship -health
//	~ #ship class player → player boss
//	~ scene physics.step 0.02 → 0.01
//	~ components health (schema changed)
//	~ mixin rock (changed)
//
// An empty value prints as "".
func (e DiffEntry) String() string {
	var b strings.Builder
	switch e.Kind {
	case EntityCreated:
		b.WriteString("+ " + e.Entity)
	case EntityDestroyed:
		b.WriteString("- " + e.Entity)
	case EntityMoved:
		b.WriteString("> " + e.Entity)
	case ComponentAdded:
		b.WriteString("~ " + e.Entity + " +" + e.Component)
		if e.New != "" {
			b.WriteString(" " + e.New)
		}
	case ComponentRemoved:
		b.WriteString("~ " + e.Entity + " -" + e.Component)
	case PropertyChanged:
		b.WriteString("~ " + e.Entity + " " + propName(e.Component, e.Property) + " " + shown(e.Old) + " → " + shown(e.New))
	case ClassChanged:
		b.WriteString("~ " + e.Entity + " class " + shown(e.Old) + " → " + shown(e.New))
	case SystemChanged:
		b.WriteString("~ scene " + propName(e.Component, e.Property) + " " + shown(e.Old) + " → " + shown(e.New))
	case DeclChanged:
		b.WriteString("~ components " + e.Component + " (" + e.New + ")")
	case MixinChanged:
		b.WriteString("~ mixin " + e.Component + " (" + e.New + ")")
	case PrefabChanged:
		b.WriteString("~ prefab " + e.Component + " (" + e.New + ")")
	default:
		b.WriteString("? " + e.Entity)
	}
	return b.String()
}

func propName(comp, prop string) string {
	if prop == "" {
		return comp
	}
	return comp + "." + prop
}

// shown prints an empty value visibly.
func shown(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// Entries lists what the diff changes, one entry per created, destroyed
// or moved entity (each entity of a created or destroyed subtree by
// itself), per component added or removed, and per property changed, with
// old and new values printed through reg's printers from the old and the
// new plan's composed components (mixins applied). reg is the registry the
// scene runs in; Entries may be called before or after [Scene.Apply] (after
// it, created entities are named by their live paths).
//
// The order is: created, destroyed, changed (per entity in document order:
// components added, removed, properties changed, class), moved, then
// declarations, mixins and system settings.
func (d *Diff) Entries(reg *registry.Registry) []DiffEntry {
	var out []DiffEntry
	el := entryLabels{reg: reg}
	for _, n := range d.Created {
		walkNodes([]*plan.Node{n}, func(x *plan.Node) {
			if x != n && !d.ents[x.Index].IsZero() {
				return // a matched node moved under the new one
			}
			var e ecs.Entity // named by its place in the World once Apply made it
			if d.applied != nil {
				e = d.applied[x.Index]
			}
			out = append(out, DiffEntry{Kind: EntityCreated, Entity: el.label(x, e), Pos: x.Src.Pos})
		})
	}
	for _, n := range d.Destroyed {
		walkNodes([]*plan.Node{n}, func(x *plan.Node) {
			out = append(out, DiffEntry{Kind: EntityDestroyed, Entity: el.label(x, ecs.Entity{}), Pos: x.Src.Pos})
		})
	}
	for _, c := range d.Changed {
		out = d.changeEntries(out, reg, el.label(c.New, c.Entity), c)
	}
	for _, n := range d.Moved {
		out = append(out, DiffEntry{Kind: EntityMoved, Entity: el.label(n, d.ents[n.Index]), Pos: n.Src.Pos})
	}
	for _, s := range d.Decls {
		name, note := cutNote(s)
		out = append(out, DiffEntry{Kind: DeclChanged, Component: name, New: note})
	}
	for _, s := range d.Mixins {
		name, note := cutNote(s)
		out = append(out, DiffEntry{Kind: MixinChanged, Component: name, New: note})
	}
	for _, s := range d.Prefabs {
		name, note := cutNote(s)
		out = append(out, DiffEntry{Kind: PrefabChanged, Component: name, New: note})
	}
	out = d.spawnedEntries(out, el)
	out = d.systemEntries(out, reg)
	return out
}

// cutNote splits "name (note)" as Diff.Decls and Diff.Mixins write them.
func cutNote(s string) (name, note string) {
	name, note, _ = strings.Cut(s, " (")
	return name, strings.TrimSuffix(note, ")")
}

// entryLabels names entities in entries.
type entryLabels struct {
	reg *registry.Registry
}

// label names node n, whose entity (maybe zero or dead) is e.
func (el entryLabels) label(n *plan.Node, e ecs.Entity) string {
	if n.ID() != "" {
		return "#" + n.ID()
	}
	if el.reg != nil && !e.IsZero() && el.reg.World().Alive(e) {
		return entityLabel(el.reg, e)
	}
	return n.Path
}

// schemaIn returns the schema of the component name as plan knows it: the
// plan's own declaration, else the registry's component; nil if neither
// has it.
func schemaIn(pl *plan.Plan, reg *registry.Registry, name string) *registry.Schema {
	base, _, _ := strings.Cut(name, "__")
	if pl != nil {
		for _, dp := range pl.Decls {
			if dp.Decl.Name == base {
				return dp.Schema
			}
		}
	}
	if reg != nil {
		if c, ok := reg.Component(base); ok {
			return c.Schema
		}
	}
	return nil
}

// patchOf returns the patch of the component name among comps.
func patchOf(comps []registry.NamedPatch, name string) registry.Patch {
	for _, np := range comps {
		if np.Name == name {
			return np.Patch
		}
	}
	return nil
}

// propText prints the value property prop (by name; "" for a single
// property) has under patch p of schema s: the given value, else the
// default. ok is false if s has no such property.
func propText(s *registry.Schema, p registry.Patch, prop string) (string, bool) {
	if s == nil {
		return "", false
	}
	idx := -1
	for i := range s.Props {
		if s.Props[i].Name == prop {
			idx = i
			break
		}
	}
	if idx < 0 {
		return "", false
	}
	v := s.Props[idx].Default
	for _, pv := range p {
		if pv.Index == idx {
			v = pv.Value
		}
	}
	return s.Props[idx].Print(v), true
}

// patchText prints patch p of schema s as an attribute string.
func patchText(s *registry.Schema, p registry.Patch) string {
	if s == nil || len(p) == 0 {
		return ""
	}
	for _, pv := range p {
		if pv.Index < 0 || pv.Index >= len(s.Props) {
			return ""
		}
	}
	return s.PrintPatch(p)
}

func (d *Diff) changeEntries(out []DiffEntry, reg *registry.Registry, label string, c *Change) []DiffEntry {
	pos := c.New.Src.Pos
	for _, name := range c.Added {
		out = append(out, DiffEntry{Kind: ComponentAdded, Entity: label, Component: name,
			New: patchText(schemaIn(d.new, reg, name), patchOf(c.New.Comps, name)), Pos: pos})
	}
	for _, name := range c.Removed {
		out = append(out, DiffEntry{Kind: ComponentRemoved, Entity: label, Component: name,
			Old: patchText(schemaIn(d.old, reg, name), patchOf(c.Old.Comps, name)), Pos: pos})
	}
	// Properties, in the new node's component order.
	for _, np := range c.New.Comps {
		props, ok := c.Props[np.Name]
		if !ok {
			continue
		}
		os, ns := schemaIn(d.old, reg, np.Name), schemaIn(d.new, reg, np.Name)
		op := patchOf(c.Old.Comps, np.Name)
		for _, prop := range props {
			e := DiffEntry{Kind: PropertyChanged, Entity: label, Component: np.Name, Property: prop, Pos: pos}
			e.Old, _ = propText(os, op, prop)
			e.New, _ = propText(ns, np.Patch, prop)
			out = append(out, e)
		}
	}
	if c.Classes {
		out = append(out, DiffEntry{Kind: ClassChanged, Entity: label,
			Old: strings.Join(c.Old.Class(), " "), New: strings.Join(c.New.Class(), " "), Pos: pos})
	}
	return out
}

func (d *Diff) systemEntries(out []DiffEntry, reg *registry.Registry) []DiffEntry {
	if len(d.Systems) == 0 || reg == nil {
		return out
	}
	find := func(pl *plan.Plan, name string) registry.Patch {
		for _, sp := range pl.Systems {
			if sp.Name == name {
				return sp.Patch
			}
		}
		return nil
	}
	for _, name := range d.Systems {
		sys, ok := reg.System(name)
		if !ok {
			continue
		}
		op, np := find(d.old, name), find(d.new, name)
		for _, i := range patchDiff(sys.Schema, op, np) {
			prop := sys.Schema.Props[i].Name
			e := DiffEntry{Kind: SystemChanged, Component: name, Property: prop}
			e.Old, _ = propText(sys.Schema, op, prop)
			e.New, _ = propText(sys.Schema, np, prop)
			out = append(out, e)
		}
	}
	return out
}

// entityLabel names a live entity in entries: "#id", or its path.
func entityLabel(reg *registry.Registry, e ecs.Entity) string {
	if id := reg.EntityID(e); id != "" {
		return "#" + id
	}
	return export.EntityPath(reg, e)
}
