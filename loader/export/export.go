package export

import (
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Options choose what [Export] writes.
type Options struct {
	// Root, if not zero, limits the export to this entity's subtree.
	Root ecs.Entity
	// Flat writes every entity whole, prefab instances too, without the
	// prefabs: as if the scene had been written without them. Otherwise
	// the export holds the registry's prefabs and writes each instance
	// as `prefab:` plus what differs from its prefab.
	Flat bool
	// Lists are the array properties written as lists (a YAML flow
	// sequence, [x, "y z"]; a JSON array in a JSON dump's sections of
	// settings, declarations and prefabs, whose entities write arrays
	// as arrays anyway) rather than as A-Frame's text ("x, y z"): a
	// value, or a declaration's default, of such a property, on every
	// entity, prefab and setting. The Lists of a running scene's plan
	// (live.Scene.Plan.Lists) are those its files write as lists, so
	// that its export writes them as they were written. Nil: none.
	Lists scenefile.Lists
}

// Export writes the World's current state (or a subtree of it) as a scene
// [scenefile.Document]: declared components, non-default system settings, and every
// entity in document order with its id, classes and components, each
// component with only its non-default values (mixins are flattened into
// the values they produced). Loading the document into a fresh Registry
// with the same registered components gives the same state.
func Export(reg *registry.Registry, opt Options) *scenefile.Document {
	doc := exportHead(reg, opt)
	x := &exporter{reg: reg, flat: opt.Flat, lists: opt.Lists}
	if !opt.Flat {
		doc.Prefabs = x.prefabSpecs()
	}
	if opt.Root.IsZero() {
		for e := range reg.World().Roots() {
			doc.Entities = append(doc.Entities, x.spec(x.entityX(e)))
		}
	} else if reg.World().Alive(opt.Root) {
		doc.Entities = append(doc.Entities, x.spec(x.entityX(opt.Root)))
	}
	return doc
}

// exportHead returns what Export returns but the entities: the
// declarations, and the system settings if opt has no Root.
func exportHead(reg *registry.Registry, opt Options) *scenefile.Document {
	doc := &scenefile.Document{}
	for _, c := range reg.Components() {
		if !c.Declared {
			continue
		}
		d := &scenefile.Decl{Name: c.Name, Single: c.Schema.Single()}
		for i := range c.Schema.Props {
			p := &c.Schema.Props[i]
			pd := &scenefile.PropDecl{
				Name: p.Name, Type: p.Type.Name, Default: p.Type.Print(p.Default), HasDefault: true,
				OneOf: p.OneOf, Min: p.Min, Max: p.Max,
			}
			if p.OnDelete != registry.Clear {
				pd.OnDelete = p.OnDelete.String()
			}
			if items, ok := listItems(opt.Lists, c.Name, p, p.Default); ok {
				pd.DefaultList = scenefile.NewList(items)
			}
			d.Props = append(d.Props, pd)
		}
		doc.Decls = append(doc.Decls, d)
	}
	if opt.Root.IsZero() {
		for _, s := range reg.Systems() {
			if c := exportValue(reg, opt.Lists, s.Name, s.Schema, s.Values()); c.Kind != scenefile.ValueEmpty {
				doc.Systems = append(doc.Systems, c)
			}
		}
	}
	return doc
}

// exportValue returns the component (or system setting) name with
// values vs as written in an export: its properties that differ from the
// schema's defaults, as an attribute string; or, when a string cannot be
// said in one (a ';', or white space at an end, in a component with
// several properties), as a mapping of exact values, which YAML writes as
// a mapping and XML as name.property attributes. A component with only
// default values is written empty, except one whose single property is a
// string with a non-empty default: an empty XML attribute would read as
// the empty string, so the default is written out.
//
// A property lists names (see [Options.Lists]) is written as a list: the
// value of a single-property component, or an entry of a mapping.
func exportValue(reg *registry.Registry, lists scenefile.Lists, name string, s *registry.Schema, vs []any) *scenefile.ComponentSpec {
	c := &scenefile.ComponentSpec{Name: name, Kind: scenefile.ValueEmpty}
	strType, _ := reg.Types().Lookup("string")
	vs = namedRefs(reg, vs)
	var p registry.Patch
	for i := range s.Props {
		if !s.Props[i].Type.Equal(vs[i], s.Props[i].Default) {
			p = append(p, registry.PropValue{Index: i, Value: vs[i]})
		}
	}
	if s.Single() && s.Props[0].Type == strType && strType != nil {
		c.Exact = true
		if len(p) == 0 && s.Props[0].Print(s.Props[0].Default) != "" {
			p = registry.Patch{{Index: 0, Value: vs[0]}}
		}
	}
	if len(p) == 0 {
		return c
	}
	return patchSpec(reg, lists, name, s, p)
}

// patchSpec writes the values p of a component as an export does: an
// attribute string, or a mapping of exact values when a string cannot be
// said in one or a property is written as a list (see exportValue).
func patchSpec(reg *registry.Registry, lists scenefile.Lists, name string, s *registry.Schema, p registry.Patch) *scenefile.ComponentSpec {
	c := &scenefile.ComponentSpec{Name: name, Kind: scenefile.ValueText}
	strType, _ := reg.Types().Lookup("string")
	c.Exact = s.Single() && s.Props[0].Type == strType && strType != nil
	c.Text = s.PrintPatch(p)
	if s.Single() {
		if items, ok := listItems(lists, name, &s.Props[0], p[len(p)-1].Value); ok {
			c.List = scenefile.NewList(items)
		} else if c.Text == "" && !c.Exact {
			// An empty value reads as none (the defaults): one space
			// reads as the empty text it is (an empty array over a
			// default or a prefab's that is not).
			c.Text = " "
		}
		return c
	}
	listed := false
	for _, pv := range p {
		if _, ok := listItems(lists, name, &s.Props[pv.Index], pv.Value); ok {
			listed = true
		}
	}
	if !listed && attrRoundTrips(s, c.Text, p) {
		return c
	}
	c.Kind, c.Text, c.Exact = scenefile.ValueMap, "", true
	for _, pv := range p {
		prop := &s.Props[pv.Index]
		kv := &scenefile.KV{Key: prop.Name, Value: prop.Print(pv.Value), Exact: true}
		if items, ok := listItems(lists, name, prop, pv.Value); ok {
			kv.List = scenefile.NewList(items)
		}
		c.Map = append(c.Map, kv)
	}
	return c
}

// listItems returns the items of v, the value of property p of
// component name, if lists says it is written as a list (and it is an
// array).
func listItems(lists scenefile.Lists, name string, p *registry.Property, v any) ([]string, bool) {
	if len(lists) == 0 {
		return nil, false
	}
	base, _, _ := strings.Cut(name, "__")
	if !lists[scenefile.ListKey{Component: base, Property: p.Name}] {
		return nil, false
	}
	if rs, ok := v.(registry.Refs); ok {
		items := make([]string, len(rs))
		for i, r := range rs {
			items[i] = r.Text
		}
		return items, true
	}
	items, ok := v.([]string)
	return items, ok
}

// attrRoundTrips reports whether the attribute string text, printed from
// patch p, parses back to the same values.
func attrRoundTrips(s *registry.Schema, text string, p registry.Patch) bool {
	back, err := s.ParseAttr("", text)
	if err != nil || len(back) != len(p) {
		return false
	}
	for i := range p {
		prop := &s.Props[p[i].Index]
		if back[i].Index != p[i].Index || !prop.Type.Equal(back[i].Value, p[i].Value) {
			return false
		}
	}
	return true
}
