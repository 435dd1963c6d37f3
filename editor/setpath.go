package editor

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// A set of one part of a component (Set.Path): a property ("speed"), or
// axes of a vector ("x", "xz" of a single-property vector component,
// "axis.y" of a property). The part's value is made into an attribute
// string twice: over the World's value, for the World (its other axes
// stay as the World has them), and over the file's, for a save (the
// file's other axes stay as the file writes them, never a value the
// simulation made).

// axisLetters are the axes of vectors, in their order.
const axisLetters = "xyzw"

// partSet is a Set.Path resolved against its component's schema.
type partSet struct {
	comp string
	sch  *registry.Schema
	prop int
	// axes are the indexes of the axes set, in the order the value
	// gives them; nil: the whole property.
	axes []int
}

// resolvePath resolves path against component name's schema.
func resolvePath(name string, sch *registry.Schema, path string) (*partSet, error) {
	ps := &partSet{comp: name, sch: sch}
	rest := path
	if !sch.Single() {
		prop, axes, _ := strings.Cut(path, ".")
		k, ok := sch.Lookup(prop)
		if !ok || prop == "" {
			return nil, fail(Invalid, "%s has no property %q (in %s.%s)", name, prop, name, path)
		}
		ps.prop, rest = k, axes
		if rest == "" {
			return ps, nil
		}
	} else if len(sch.Props) == 0 {
		return nil, fail(Invalid, "%s is a tag: it has nothing to set in %s.%s", name, name, path)
	}
	size := vectorSize(sch.Props[ps.prop].Type.Name)
	for _, r := range rest {
		a := strings.IndexRune(axisLetters[:size], r)
		if a < 0 || containsInt(ps.axes, a) {
			break
		}
		ps.axes = append(ps.axes, a)
	}
	if size == 0 || len(ps.axes) != len(rest) {
		what := name
		if !sch.Single() {
			what += "." + sch.Props[ps.prop].Name
		}
		if size == 0 {
			return nil, fail(Invalid, "%s.%s: %s is a %s, not a vector: it has no axes", name, path, what, sch.Props[ps.prop].Type.Name)
		}
		return nil, fail(Invalid, "%s.%s: expected axes of %s (%s, each once) after %s.", name, path, what, strings.Join(strings.Split(axisLetters[:size], ""), ", "), what)
	}
	return ps, nil
}

// vectorSize returns the number of axes of a vector type (vec2, vec3,
// vec4), 0 for another type.
func vectorSize(typ string) int {
	switch typ {
	case "vec2":
		return 2
	case "vec3":
		return 3
	case "vec4":
		return 4
	}
	return 0
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// attr returns the attribute string that sets the part to value text
// over base, the property's fields as printed (nil for a whole
// property). An error is an [Invalid] [*Error] wrapping an
// [*registry.AttrError] whose offset is in text.
func (ps *partSet) attr(text string, base []string) (string, error) {
	p := &ps.sch.Props[ps.prop]
	prefix := ""
	if !ps.sch.Single() {
		prefix = p.Name + ": "
	}
	if ps.axes == nil {
		if _, err := p.Parse(text); err != nil {
			return "", ps.valueErr(err, text, func(off int) int { return off })
		}
		return prefix + text, nil
	}
	given := strings.Fields(text)
	if len(given) != len(ps.axes) {
		names := make([]string, len(ps.axes))
		for i, a := range ps.axes {
			names[i] = axisLetters[a : a+1]
		}
		ae := &registry.AttrError{Component: ps.comp, Property: p.Name, Text: text, Pair: -1,
			Expected: fmt.Sprintf("%d numbers separated by spaces, for %s", len(ps.axes), strings.Join(names, " "))}
		return "", &Error{Kind: Invalid, Msg: ae.Error(), Err: ae}
	}
	fields := append([]string(nil), base...)
	// Where each given field lands in the vector's text, to place an
	// error in text.
	at := make(map[int]int, len(given)) // offset in the vector's text -> in text
	from := 0
	for i, a := range ps.axes {
		off := strings.Index(text[from:], given[i]) + from
		from = off + len(given[i])
		fields[a] = given[i]
		at[a] = off
	}
	vec := strings.Join(fields, " ")
	if _, err := p.Parse(vec); err != nil {
		return "", ps.valueErr(err, text, func(off int) int {
			pos := 0
			for a, f := range fields {
				if off < pos+len(f)+1 {
					if o, ok := at[a]; ok {
						return o + max(0, off-pos)
					}
					return 0
				}
				pos += len(f) + 1
			}
			return 0
		})
	}
	return prefix + vec, nil
}

// valueErr makes the error of a value the property's parser refused,
// its offset placed in the text given (where maps an offset of the
// parsed text into it).
func (ps *partSet) valueErr(err error, text string, where func(int) int) error {
	p := &ps.sch.Props[ps.prop]
	ae := &registry.AttrError{Component: ps.comp, Property: p.Name, Text: text, Pair: -1,
		Expected: "a " + p.Type.Name, Err: err}
	var ve *registry.ValueError
	if errors.As(err, &ve) {
		ae.Text, ae.Expected, ae.Offset = ve.Text, ve.Expected, where(ve.Offset)
	} else {
		ae.Msg = err.Error()
	}
	return &Error{Kind: Invalid, Msg: ae.Error(), Err: ae}
}

// worldFields returns the fields of the part's property as e has it in
// the World (its default if e lacks the component); nil for a whole
// property.
func (ps *partSet) worldFields(vals []any) []string {
	if ps.axes == nil {
		return nil
	}
	p := &ps.sch.Props[ps.prop]
	v := p.Default
	if ps.prop < len(vals) && vals[ps.prop] != nil {
		v = vals[ps.prop]
	}
	return strings.Fields(p.Print(v))
}

// fileFields returns the fields of the part's property as the scene's
// files give it to e: as the entity's own value writes them when it
// writes the property itself (so that the axes not set keep their text),
// else as the value they compose prints (a mixin's, the prefab's, the
// default). ok is false when the scene did not make e from a file (the
// save then refuses it) or the part is a whole property.
func (ps *partSet) fileFields(ed *Editor, e ecs.Entity) (fields []string, ok bool) {
	r := ed.opt.Reloader
	if ps.axes == nil || r == nil || r.Scene == nil {
		return nil, false
	}
	n, ok := r.Scene.NodeOf(e)
	if !ok {
		return nil, false
	}
	p := &ps.sch.Props[ps.prop]
	v := p.Default
	for _, np := range n.Comps {
		if np.Name != ps.comp {
			continue
		}
		for _, pv := range np.Patch {
			if pv.Index == ps.prop {
				v = pv.Value
			}
		}
	}
	printed := strings.Fields(p.Print(v))
	own, found := ownText(n.Src, ps.comp, ps.sch, p.Name)
	if !found {
		return printed, true
	}
	if w, err := p.Parse(own); err == nil && p.Type.Equal(w, v) && len(strings.Fields(own)) == len(printed) {
		return strings.Fields(own), true
	}
	return printed, true
}

// ownText returns the text entity ent writes for property prop of its
// own component name, where that text is the property's alone: the
// value of a single-property component written as text, or a
// property's value in a mapping.
func ownText(ent *scenefile.EntitySpec, name string, sch *registry.Schema, prop string) (string, bool) {
	if ent == nil {
		return "", false
	}
	for _, c := range ent.Components {
		if c.Name != name || c.Axes {
			continue
		}
		switch {
		case sch.Single() && c.Kind == scenefile.ValueText:
			return c.Text, true
		case !sch.Single() && c.Kind == scenefile.ValueMap:
			for _, kv := range c.Map {
				if k, ok := sch.Lookup(kv.Key); ok && sch.Props[k].Name == prop {
					return kv.Value, true
				}
			}
		}
	}
	return "", false
}
