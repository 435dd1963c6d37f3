package edit

import (
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/scenecs/scenecs/loader/internal/yamlsyntax"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// Dropping one property from what an entity writes for a component: the
// revert of one property of a prefab's instance, saved. The entity keeps
// writing the component's other properties where and as it writes them;
// the property's pair leaves its attribute string, its key its mapping,
// its comp.prop attribute the start tag.

// Written returns the properties ent writes for component name (sch its
// schema), by index, with their text as written (the last of a repeated
// one); a single-property component writes index 0, a tag none.
func Written(ent *scenefile.EntitySpec, name string, sch Schema) map[int]string {
	out := map[int]string{}
	for _, c := range ownComponents(ent, name) {
		switch {
		case sch.IsTag():
		case c.Kind == scenefile.ValueMap:
			for _, kv := range c.Map {
				if i, ok := sch.lookup(strings.TrimSpace(kv.Key)); ok {
					out[i] = strings.TrimSpace(kv.Value)
				}
			}
		case sch.Single():
			if c.Kind == scenefile.ValueText {
				out[0] = c.Text
			}
		case c.Kind == scenefile.ValueText:
			pairs, _ := splitAttrPairs(c.Text)
			for _, p := range pairs {
				if i, ok := sch.lookup(p.key); ok {
					out[i] = c.Text[p.valStart:p.valEnd]
				}
			}
		}
	}
	return out
}

// DropProperty returns src, the bytes of the scene file ent was read
// from, without property index of ent's component name: ent then gets
// that property from where it gets the component's other values (its
// prefab, a mixin, the default). The entity must write the property and
// at least one other of the component (to drop the last, remove the
// component: RemoveComponent). The result is read back: the component
// must write every other property as before and not that one, and the
// rest of the file must read the same; otherwise the error wraps
// ErrCannotEdit.
func DropProperty(src []byte, ent *scenefile.EntitySpec, name string, sch Schema, index int) ([]byte, error) {
	if ent == nil {
		return nil, fmt.Errorf("edit: DropProperty: no entity")
	}
	before := Written(ent, name, sch)
	if _, ok := before[index]; !ok || sch.Single() || sch.IsTag() {
		return nil, fmt.Errorf("%s: the entity does not write that property of %s: %w", ent.Pos, name, ErrNoSource)
	}
	if len(before) == 1 {
		return nil, fmt.Errorf("%s: it is the only property of %s the entity writes (remove the component instead): %w", ent.Pos, name, ErrCannotEdit)
	}
	var ops []rawOp
	var err error
	switch scenefile.FormatOf(ent.File) {
	case scenefile.FormatYAML:
		var y *yamlEditor
		if y, err = newYAMLEditor(ent.File, src); err == nil {
			ops, err = y.dropProperty(ent, name, sch, index)
		}
	case scenefile.FormatXML:
		ops, err = newXMLEditor(ent.File, src).dropProperty(ent, name, sch, index)
	default:
		return nil, fmt.Errorf("%s: saving into %s files is not supported: %w", ent.Pos, formatName(ent.File), ErrCannotEdit)
	}
	if err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrCannotEdit)
	}
	out, err := applyEdit(src, ent, ops)
	if err != nil {
		return nil, err
	}
	want := maps.Clone(before)
	delete(want, index)
	check := func(_, now []*scenefile.ComponentSpec) error {
		got := Written(&scenefile.EntitySpec{File: ent.File, Components: now}, name, sch)
		if !maps.Equal(got, want) {
			return fmt.Errorf("the component writes %v, not %v", got, want)
		}
		return nil
	}
	if err := verifyEdit(src, out, ent, name, check); err != nil {
		return nil, err
	}
	return out, nil
}

// dropPairOps returns the edits that take every pair of property index
// out of text, an attribute string of pairs, with the separator that
// joined it to the next pair (or, for the last, to the one before).
func dropPairOps(text string, s Schema, index int) ([]textOp, error) {
	pairs, err := splitAttrPairs(text)
	if err != nil {
		return nil, err
	}
	var ops []textOp
	for i, p := range pairs {
		if k, ok := s.lookup(p.key); !ok || k != index {
			continue
		}
		switch {
		case i+1 < len(pairs):
			ops = append(ops, textOp{p.keyStart, pairs[i+1].keyStart, ""})
		case i > 0:
			ops = append(ops, textOp{pairs[i-1].valEnd, p.valEnd, ""})
		default:
			ops = append(ops, textOp{p.keyStart, p.valEnd, ""})
		}
	}
	// Neighbours both dropped give overlapping spans: join them.
	sort.Slice(ops, func(i, j int) bool { return ops[i].a < ops[j].a })
	var out []textOp
	for _, op := range ops {
		if n := len(out); n > 0 && op.a <= out[n-1].b {
			out[n-1].b = max(out[n-1].b, op.b)
			continue
		}
		out = append(out, op)
	}
	return out, nil
}

// dropProperty returns the ops that take property index out of the
// entity's component name, written as an attribute string or a mapping.
func (y *yamlEditor) dropProperty(ent *scenefile.EntitySpec, name string, sch Schema, index int) ([]rawOp, error) {
	em, err := y.entity(ent)
	if err != nil {
		return nil, err
	}
	p := pairOf(em, name)
	comps := ownComponents(ent, name)
	if p == nil || len(comps) != 1 {
		return nil, fmt.Errorf("%s: the file does not say what was read", ent.Pos)
	}
	c := comps[0]
	flow, parent := y.isFlow(em), y.indentOf(em)
	switch v := p.v; v.Kind {
	case yamlsyntax.Scalar:
		s, err := y.scalar(v, parent, flow)
		if err != nil {
			return nil, err
		}
		if s.text != c.Text {
			return nil, fmt.Errorf("%s: the value reads %q, the scene %q", c.ValuePos(), s.text, c.Text)
		}
		tops, err := dropPairOps(s.text, sch, index)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", c.ValuePos(), name, err)
		}
		return s.edit(y.src, tops), nil
	case yamlsyntax.Mapping:
		ps := pairs(v)
		for i := range ps {
			if k, ok := sch.lookup(strings.TrimSpace(ps[i].k.Value)); ok && k == index {
				if y.isFlow(v) {
					return y.removeFlowPair(ps, i), nil
				}
				return y.removeBlockPair(ps, i), nil
			}
		}
	}
	return nil, fmt.Errorf("%s: %s does not write that property where the scene read it", c.ValuePos(), name)
}

// dropProperty returns the ops that take property index out of the
// component name's attributes: from its attribute string, and its
// comp.prop attribute with the white space before it.
func (x *xmlEditor) dropProperty(ent *scenefile.EntitySpec, name string, sch Schema, index int) ([]rawOp, error) {
	t, err := x.tag(ent)
	if err != nil {
		return nil, err
	}
	var ops []rawOp
	for _, c := range ownComponents(ent, name) {
		if c.Kind == scenefile.ValueMap {
			if k, ok := sch.lookup(strings.TrimSpace(c.Map[0].Key)); ok && k == index {
				a := t.attrFor(name + "." + c.Map[0].Key)
				if a == nil {
					return nil, fmt.Errorf("%s: attribute %s.%s not found in the start tag", c.Pos(), name, c.Map[0].Key)
				}
				ops = append(ops, rawOp{a.ws, a.attrEnd, ""})
			}
			continue
		}
		a := t.attrFor(name)
		if a == nil {
			return nil, fmt.Errorf("%s: attribute %s not found in the start tag", c.Pos(), name)
		}
		s, err := x.valueSlot(a, c.Text)
		if err != nil {
			return nil, err
		}
		tops, err := dropPairOps(s.text, sch, index)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", c.ValuePos(), name, err)
		}
		if len(tops) > 0 {
			ops = append(ops, s.edit(x.src, tops)...)
		}
	}
	return ops, nil
}
