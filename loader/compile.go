package loader

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/scenecs/scenecs/registry"
)

// Plan is a scene document validated against a registry: every component
// value parsed, every mixin and declaration checked. Building a World from
// a Plan cannot fail on account of the document; hot reload diffs two
// Plans.
type Plan struct {
	Doc *Document
	// Decls are the components the document declares, with their
	// schemas, in document order.
	Decls []*DeclPlan
	// Mixins are the document's mixins, parsed, by id.
	Mixins map[string]*MixinPlan
	// Systems are the scene-level system settings, parsed.
	Systems []*SystemPlan
	// Roots are the top-level entities in document order.
	Roots []*Node
	// Tags are names used as empty components that are neither registered
	// nor declared: they become tags.
	Tags []string
	// Count is the number of entities.
	Count int
}

// DeclPlan is one declared component with its schema.
type DeclPlan struct {
	Decl   *Decl
	Schema *registry.Schema
}

// MixinPlan is one mixin with its components parsed.
type MixinPlan struct {
	Src   *Mixin
	Mixin *registry.Mixin
}

// SystemPlan is one system setting, parsed.
type SystemPlan struct {
	Src   *Component
	Name  string
	Patch registry.Patch
}

// Node is one entity of a Plan: its source, its own parsed components, and
// its components composed with its mixins (what the entity gets).
type Node struct {
	Src      *Entity
	Parent   *Node
	Children []*Node
	// Own are the components written on the entity itself.
	Own []registry.NamedPatch
	// Comps are Own composed over the entity's mixins, per property.
	Comps []registry.NamedPatch
	// Path locates the node for messages and matching: ids or child
	// indexes from the root joined by "/".
	Path string
}

// schemaSource finds the schema of a component name during compilation:
// the document's declarations first, then the registry.
type schemaSource struct {
	reg   *registry.Registry
	decls map[string]*registry.Schema
	tags  map[string]bool
}

func (s *schemaSource) lookup(name string) (*registry.Schema, bool, error) {
	base, inst, isInst := strings.Cut(name, "__")
	if sc, ok := s.decls[base]; ok {
		if isInst {
			return nil, false, fmt.Errorf("component %q is declared in the scene and is not multiple: instance name %q is not allowed", base, name)
		}
		return sc, true, nil
	}
	c, ok := s.reg.Component(base)
	if !ok {
		return nil, false, nil
	}
	if isInst {
		if !c.Multiple {
			return nil, false, fmt.Errorf("component %q is not multiple: instance name %q is not allowed", base, name)
		}
		if inst == "" {
			return nil, false, fmt.Errorf("invalid instance name %q: expected %s__ID", name, base)
		}
	}
	return c.Schema, true, nil
}

func (s *schemaSource) known() []string {
	names := s.reg.Names()
	for n := range s.decls {
		names = append(names, n)
	}
	return names
}

// Compile validates doc against reg and returns its Plan. It reports every
// problem as an ErrorList; it changes neither reg nor any World.
func Compile(doc *Document, reg *registry.Registry) (*Plan, error) {
	c := &compiler{doc: doc, reg: reg, errs: &errorSink{max: 1000}}
	p := c.compile()
	if len(c.errs.list) > 0 {
		c.errs.list.Sort()
		return nil, c.errs.list
	}
	return p, nil
}

type compiler struct {
	doc  *Document
	reg  *registry.Registry
	errs *errorSink
	src  schemaSource
	plan *Plan
}

func (c *compiler) compile() *Plan {
	p := &Plan{Doc: c.doc, Mixins: map[string]*MixinPlan{}}
	c.plan = p
	c.src = schemaSource{reg: c.reg, decls: map[string]*registry.Schema{}, tags: map[string]bool{}}
	// Declarations.
	for _, d := range c.doc.Decls {
		s, err := declSchema(d, c.reg)
		if err != nil {
			c.errs.add(d.Pos, "component %q: %v", d.Name, err)
			continue
		}
		if rc, ok := c.reg.Component(d.Name); ok && !rc.Declared {
			c.errs.add(d.Pos, "component %q is already registered by the program; a scene cannot redeclare it", d.Name)
			continue
		}
		c.src.decls[d.Name] = s
		p.Decls = append(p.Decls, &DeclPlan{Decl: d, Schema: s})
	}
	// Systems.
	for _, sc := range c.doc.Scene {
		sys, ok := c.reg.System(sc.Name)
		if !ok {
			var names []string
			for _, s := range c.reg.Systems() {
				names = append(names, s.Name)
			}
			c.errs.add(sc.Pos, "unknown system %q%s", sc.Name, suggest(sc.Name, names))
			continue
		}
		patch, ok := c.parseValue(sc, sys.Schema)
		if ok {
			p.Systems = append(p.Systems, &SystemPlan{Src: sc, Name: sc.Name, Patch: patch})
		}
	}
	// Mixins.
	for _, m := range c.doc.Mixins {
		rm := &registry.Mixin{ID: m.ID, Mixins: m.Mixins}
		for _, comp := range m.Components {
			if np, ok := c.component(comp); ok {
				rm.Components = append(rm.Components, np)
			}
		}
		p.Mixins[m.ID] = &MixinPlan{Src: m, Mixin: rm}
	}
	for _, m := range c.doc.Mixins {
		if _, err := c.expand(m.Mixins, []string{m.ID}); err != nil {
			c.errs.add(m.MixinPos, "mixin %q: %v", m.ID, err)
		}
	}
	// Entities.
	for i, e := range c.doc.Entities {
		if n := c.node(e, nil, i); n != nil {
			p.Roots = append(p.Roots, n)
		}
	}
	for t := range c.src.tags {
		p.Tags = append(p.Tags, t)
	}
	return p
}

// expand returns the mixins ids stand for, nested ones first, in order of
// increasing precedence; stack holds the mixins being expanded (cycles).
func (c *compiler) expand(ids []string, stack []string) ([]*registry.Mixin, error) {
	var out []*registry.Mixin
	for _, id := range ids {
		for i, s := range stack {
			if s == id {
				return nil, fmt.Errorf("mixin cycle: %s -> %s", strings.Join(stack[i:], " -> "), id)
			}
		}
		m, ok := c.plan.Mixins[id]
		if !ok {
			if rm, ok := c.reg.Mixin(id); ok && false {
				_ = rm
			}
			var known []string
			for k := range c.plan.Mixins {
				known = append(known, k)
			}
			return nil, fmt.Errorf("unknown mixin %q%s", id, suggest(id, known))
		}
		sub, err := c.expand(m.Mixin.Mixins, append(stack, id))
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
		out = append(out, m.Mixin)
	}
	return out, nil
}

func (c *compiler) node(e *Entity, parent *Node, index int) *Node {
	n := &Node{Src: e, Parent: parent}
	seg := e.ID
	if seg == "" {
		seg = fmt.Sprint(index)
	}
	if parent != nil && e.ID == "" {
		n.Path = parent.Path + "/" + seg
	} else {
		n.Path = seg
	}
	c.plan.Count++
	for _, comp := range e.Components {
		if np, ok := c.component(comp); ok {
			n.Own = append(n.Own, np)
		}
	}
	var ms []*registry.Mixin
	if len(e.Mixins) > 0 {
		var err error
		if ms, err = c.expand(e.Mixins, nil); err != nil {
			c.errs.add(e.MixinPos, "%v", err)
		}
	}
	n.Comps = c.reg.Compose(ms, n.Own)
	for i, ch := range e.Children {
		if cn := c.node(ch, n, i); cn != nil {
			n.Children = append(n.Children, cn)
		}
	}
	return n
}

// component parses one component value against its schema.
func (c *compiler) component(comp *Component) (registry.NamedPatch, bool) {
	s, ok, err := c.src.lookup(comp.Name)
	if err != nil {
		c.errs.add(comp.Pos, "%v", err)
		return registry.NamedPatch{}, false
	}
	if !ok {
		if comp.Kind == ValueEmpty && !strings.Contains(comp.Name, "__") {
			c.src.tags[comp.Name] = true
			return registry.NamedPatch{Name: comp.Name}, true
		}
		if c.src.tags[comp.Name] {
			c.errs.add(comp.ValuePos, "%q is used as a tag elsewhere in the scene and takes no value", comp.Name)
			return registry.NamedPatch{}, false
		}
		c.errs.add(comp.Pos, "unknown component %q%s", comp.Name, suggest(comp.Name, c.src.known()))
		return registry.NamedPatch{}, false
	}
	patch, ok := c.parseValue(comp, s)
	return registry.NamedPatch{Name: comp.Name, Patch: patch}, ok
}

// parseValue parses a component (or system setting) value with schema s,
// reporting errors at the offending text.
func (c *compiler) parseValue(comp *Component, s *registry.Schema) (registry.Patch, bool) {
	var patch registry.Patch
	var err error
	switch comp.Kind {
	case ValueEmpty:
		return nil, true
	case ValueText:
		patch, err = s.ParseAttr(comp.Name, comp.Text)
	case ValueMap:
		if s.Single() {
			// A single-property value written as a mapping, such as
			// position: {x: 1, y: 2, z: 3}: the values in order.
			vals := make([]string, len(comp.Map))
			for i, e := range comp.Map {
				vals[i] = e.Value
			}
			patch, err = s.ParseAttr(comp.Name, strings.Join(vals, " "))
			break
		}
		kv := make([][2]string, len(comp.Map))
		for i, e := range comp.Map {
			kv[i] = [2]string{e.Key, e.Value}
		}
		patch, err = s.ParseMap(comp.Name, kv)
	}
	if err != nil {
		c.errs.add(errPos(comp, err), "%v", err)
		return nil, false
	}
	return patch, true
}

// errPos finds where in the source an attribute error points.
func errPos(comp *Component, err error) Pos {
	var ae *registry.AttrError
	if !errors.As(err, &ae) {
		return comp.ValuePos
	}
	switch comp.Kind {
	case ValueText:
		return offsetPos(comp.ValuePos, comp.Text, ae.Offset)
	case ValueMap:
		if ae.Pair >= 0 && ae.Pair < len(comp.Map) {
			kv := comp.Map[ae.Pair]
			if ae.Kind == registry.UnknownProperty {
				return offsetPos(kv.Pos, kv.Key, ae.Offset)
			}
			return offsetPos(kv.ValuePos, kv.Value, ae.Offset)
		}
	}
	return comp.ValuePos
}

// offsetPos moves p forward by the text up to byte offset off (characters,
// lines).
func offsetPos(p Pos, text string, off int) Pos {
	if off <= 0 || off > len(text) || !p.IsValid() {
		return p
	}
	pre := text[:off]
	if i := strings.LastIndexByte(pre, '\n'); i >= 0 {
		p.Line += strings.Count(pre, "\n")
		p.Col = 1 + utf8.RuneCountInString(pre[i+1:])
		return p
	}
	p.Col += utf8.RuneCountInString(pre)
	return p
}

func suggest(name string, known []string) string {
	if s := registry.Nearest(name, known); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// declSchema builds the schema of a declared component.
func declSchema(d *Decl, reg *registry.Registry) (*registry.Schema, error) {
	specs := make([]registry.PropSpec, 0, len(d.Props))
	for _, pd := range d.Props {
		specs = append(specs, registry.PropSpec{
			Name: pd.Name, Type: pd.Type, Default: pd.Default,
			OneOf: pd.OneOf, Min: pd.Min, Max: pd.Max,
		})
	}
	s, err := registry.NewSchema(specs, reg.Types())
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "registry: NewSchema: "))
	}
	return s, nil
}
