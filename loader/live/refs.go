package live

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// References between entities (properties of types entity and entities)
// are written as `#id` or paths, which name entities that may come later
// in the file: the plan keeps their text, and they are resolved here,
// once every entity of the scene exists, into the handles the World
// keeps (registry.Ref). One that names no entity is an error at its
// component, and the build (or reload) that made it is undone.

// refComponents returns the names of reg's components that hold
// references, nil if none does (the common case: nothing to resolve).
func refComponents(reg *registry.Registry) map[string]bool {
	var out map[string]bool
	for _, c := range reg.Components() {
		for i := range c.Schema.Props {
			if schema.IsRef(c.Schema.Props[i].Type) {
				if out == nil {
					out = map[string]bool{}
				}
				out[c.Name] = true
				break
			}
		}
	}
	return out
}

// resolveRefs resolves the references the components of nodes hold, on
// the entities made for them, and returns what names no entity.
func (s *Scene) resolveRefs(nodes []*plan.Node) scenefile.ErrorList {
	comps := refComponents(s.Registry)
	if comps == nil {
		return nil
	}
	var errs scenefile.ErrorList
	for _, n := range nodes {
		errs = append(errs, s.resolveNode(n, comps, nil)...)
	}
	return errs
}

// resolveReloaded resolves, once a reload's Apply has made and changed
// its entities, the references of the subtrees it created and of the
// components it added or set on matched entities: a reference the file
// did not touch keeps what the running scene made of it.
func (s *Scene) resolveReloaded(d *Diff) scenefile.ErrorList {
	comps := refComponents(s.Registry)
	if comps == nil {
		return nil
	}
	var errs scenefile.ErrorList
	for _, n := range d.Created {
		walkNodes([]*plan.Node{n}, func(x *plan.Node) {
			errs = append(errs, s.resolveNode(x, comps, nil)...)
		})
	}
	for _, c := range d.Changed {
		only := map[string]bool{}
		for _, name := range c.Added {
			only[name] = true
		}
		for name := range c.set {
			only[name] = true
		}
		errs = append(errs, s.resolveNode(c.New, comps, only)...)
	}
	return errs
}

// resolveNode resolves the references of n's components that hold them
// (comps), of those named in only if it is not nil.
func (s *Scene) resolveNode(n *plan.Node, comps, only map[string]bool) scenefile.ErrorList {
	e, ok := s.EntityOf(n)
	if !ok || !s.World.Alive(e) {
		return nil
	}
	var errs scenefile.ErrorList
	for _, np := range n.Comps {
		if only != nil && !only[np.Name] {
			continue
		}
		if c, _, err := s.Registry.Lookup(np.Name); err == nil && comps[c.Name] {
			errs = append(errs, s.resolveComponent(n, e, c, np)...)
		}
	}
	return errs
}

// resolveComponent resolves the references of one component of n, on e.
func (s *Scene) resolveComponent(n *plan.Node, e ecs.Entity, c *registry.Component, np registry.NamedPatch) scenefile.ErrorList {
	var errs scenefile.ErrorList
	var patch registry.Patch
	find := func(pv registry.PropValue, r schema.Ref) (schema.Ref, bool) {
		if r.Text == "" {
			return r, true
		}
		t, ok := export.Find(s.Registry, r.Text)
		if !ok {
			what := np.Name
			if name := c.Schema.Props[pv.Index].Name; name != "" {
				what += "." + name
			}
			errs = append(errs, &scenefile.Error{Pos: componentPos(n, np.Name), Msg: fmt.Sprintf("%s: no entity %q", what, r.Text)})
		}
		return schema.Ref{Target: t, Text: r.Text}, ok
	}
	for _, pv := range np.Patch {
		switch v := pv.Value.(type) {
		case schema.Ref:
			if r, ok := find(pv, v); ok && r.Text != "" {
				patch = append(patch, registry.PropValue{Index: pv.Index, Value: r})
			}
		case schema.Refs:
			out := make(schema.Refs, 0, len(v))
			all := true
			for _, r := range v {
				r, ok := find(pv, r)
				all = all && ok
				out = append(out, r)
			}
			if all && len(out) > 0 {
				patch = append(patch, registry.PropValue{Index: pv.Index, Value: out})
			}
		}
	}
	if len(errs) == 0 && len(patch) > 0 {
		if err := s.Registry.Privileged().SetPatch(e, np.Name, patch, registry.Merge); err != nil {
			errs = append(errs, &scenefile.Error{Pos: componentPos(n, np.Name), Msg: err.Error()})
		}
	}
	return errs
}

// componentPos is where n's component name is written: its value, or the
// entity when the component comes from a mixin or a prefab.
func componentPos(n *plan.Node, name string) scenefile.Pos {
	if n.Src == nil {
		return scenefile.Pos{}
	}
	for _, cs := range n.Src.Components {
		if cs.Name == name {
			return cs.ValuePos()
		}
	}
	return n.Src.Pos
}
