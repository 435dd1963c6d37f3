package selector_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/selector"
)

// relOracle evaluates a parsed selector over a relWorld by brute force:
// every variable of a scope takes, in nested loops, every value of the
// world (every live entity, faction and hp), and every relation is read
// by scanning the World. It shares nothing with the engine but the
// syntax tree.
type relOracle struct {
	f      *relWorld
	all    []ecs.Entity // document order
	domain []any
	hosts  map[string]any
}

func newRelOracle(f *relWorld, hosts map[string]any) *relOracle {
	o := &relOracle{f: f, all: slices.Collect(f.w.All()), hosts: hosts}
	for _, e := range o.all {
		o.domain = append(o.domain, e)
	}
	for _, s := range []string{"red", "blue", "green"} {
		o.domain = append(o.domain, s)
	}
	for i := range 5 {
		o.domain = append(o.domain, float64(i))
	}
	return o
}

// query returns the entities matching l in document order.
func (o *relOracle) query(l *selector.SelectorList) []ecs.Entity {
	var out []ecs.Entity
	for _, e := range o.all {
		if o.matches(l, e) {
			out = append(out, e)
		}
	}
	return out
}

func (o *relOracle) matches(l *selector.SelectorList, e ecs.Entity) bool {
	for _, cx := range l.Selectors {
		env := map[string]any{"this": e}
		for k, v := range o.hosts {
			env[k] = v
		}
		if o.exists(o.owned(&selector.SelectorList{Selectors: []*selector.Complex{cx}}, env), env, func() bool {
			return o.complex(cx, len(cx.Compounds)-1, e, env)
		}) {
			return true
		}
	}
	return false
}

// owned lists the variables occurring in l outside nested :nots that env
// does not hold yet.
func (o *relOracle) owned(l *selector.SelectorList, env map[string]any) []string {
	var names []string
	var walk func(l *selector.SelectorList)
	walk = func(l *selector.SelectorList) {
		for _, cx := range l.Selectors {
			for _, cp := range cx.Compounds {
				for _, s := range cp.Simples {
					switch s := s.(type) {
					case *selector.Attr:
						if _, ok := env[s.Value]; s.Var && !ok && !slices.Contains(names, s.Value) {
							names = append(names, s.Value)
						}
					case *selector.Pseudo:
						if s.List != nil && s.Name != "not" {
							walk(s.List)
						}
					}
				}
			}
		}
	}
	walk(l)
	return names
}

// exists reports whether some values of names (every combination of the
// domain) make f true, with env holding them.
func (o *relOracle) exists(names []string, env map[string]any, f func() bool) bool {
	if len(names) == 0 {
		return f()
	}
	defer delete(env, names[0])
	for _, v := range o.domain {
		env[names[0]] = v
		if o.exists(names[1:], env, f) {
			return true
		}
	}
	return false
}

func (o *relOracle) complex(cx *selector.Complex, k int, e ecs.Entity, env map[string]any) bool {
	cp := cx.Compounds[k]
	for _, s := range cp.Simples {
		if !o.simple(s, e, env) {
			return false
		}
	}
	if k == 0 {
		return true
	}
	for p, ok := o.f.w.Parent(e); ok; p, ok = o.f.w.Parent(p) {
		if o.complex(cx, k-1, p, env) {
			return true
		}
		if cp.Combinator == selector.Child {
			break
		}
	}
	return false
}

func (o *relOracle) list(l *selector.SelectorList, e ecs.Entity, env map[string]any) bool {
	for _, cx := range l.Selectors {
		if o.complex(cx, len(cx.Compounds)-1, e, env) {
			return true
		}
	}
	return false
}

// targets reads e's live references through comp.
func (o *relOracle) targets(comp string, e ecs.Entity) []ecs.Entity {
	var out []ecs.Entity
	for _, t := range o.f.refs(comp, e) {
		if o.f.w.Alive(t) {
			out = append(out, t)
		}
	}
	return out
}

func (o *relOracle) simple(s selector.Simple, e ecs.Entity, env map[string]any) bool {
	f := o.f
	switch s := s.(type) {
	case *selector.ID:
		return f.id[e] == s.Name
	case *selector.Class:
		return slices.Contains(f.classes[e], s.Name)
	case *selector.Attr:
		return o.attr(s, e, env)
	case *selector.Pseudo:
		switch s.Name {
		case "not":
			return !o.exists(o.owned(s.List, env), env, func() bool { return o.list(s.List, e, env) })
		case "is":
			return o.list(s.List, e, env)
		case "to":
			for _, t := range o.targets(s.Rel, e) {
				if o.list(s.List, t, env) {
					return true
				}
			}
		case "from":
			for _, h := range o.all {
				if slices.Contains(o.targets(s.Rel, h), e) && o.list(s.List, h, env) {
					return true
				}
			}
		}
		return false
	}
	panic("oracle: unknown simple")
}

func (o *relOracle) attr(a *selector.Attr, e ecs.Entity, env map[string]any) bool {
	f := o.f
	if !f.w.Has(e, f.comps[a.Comp]) {
		return false
	}
	switch {
	case a.Op == selector.OpExists:
		return true
	case a.Comp == "docked" || a.Comp == "holds":
		var want any = env[a.Value]
		if a.Ref {
			t, ok := f.byID[a.Value]
			if !ok || !f.w.Alive(t) {
				return false
			}
			want = t
		}
		t, ok := want.(ecs.Entity)
		return ok && slices.Contains(o.targets(a.Comp, e), t)
	}
	var have any
	if a.Comp == "hp" {
		have = float64(*f.hp.Get(e))
	} else {
		have = *f.faction.Get(e)
	}
	if a.Var {
		return have == env[a.Value]
	}
	switch a.Op {
	case selector.OpEq:
		return have == a.Value || a.Numeric && have == parseF(a.Value)
	case selector.OpNe:
		return have != a.Value
	case selector.OpLt:
		return have.(float64) < parseF(a.Value)
	}
	panic("oracle: unknown operator " + a.Op.String())
}

func parseF(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic(err)
	}
	return v
}

// relGen writes random selectors over relWorld's vocabulary: ids,
// classes, tags, values, references, variables (some the host's), :not,
// :is, :to, :from, and a combinator before the last compound.
type relGen struct {
	rng *rand.Rand
	n   int // entities, for ids
}

var relGenVars = []string{"[faction=$f]", "[faction=$f]", "[hp=$h]", "[docked=$l]", "[holds=$l]",
	"[docked=$this]", "[holds=$this]", "[docked=$me]", "[faction=$team]", "[faction=$g]"}

func (g *relGen) simple(depth int) string {
	r := g.rng
	switch k := r.IntN(10); {
	case k < 3 || depth <= 0:
		plain := []string{"#e" + strconv.Itoa(r.IntN(g.n)), ".a", ".b", "[ship]", "[planet]",
			"[faction=red]", "[faction!=blue]", "[hp<2]", "[hp=3]", "[docked]", "[holds]",
			"[docked=#e" + strconv.Itoa(r.IntN(g.n)) + "]", "[holds=#e" + strconv.Itoa(r.IntN(g.n)) + "]"}
		return plain[r.IntN(len(plain))]
	case k < 6:
		return relGenVars[r.IntN(len(relGenVars))]
	case k < 7:
		return ":not(" + g.compound(depth-1) + ")"
	case k < 8 && depth > 1:
		return ":is(" + g.compound(0) + ", " + g.compound(0) + ")"
	default:
		rel := []string{"docked", "holds"}[r.IntN(2)]
		return ":" + []string{"to", "from"}[r.IntN(2)] + "(" + rel + ", " + g.compound(depth-1) + ")"
	}
}

func (g *relGen) compound(depth int) string {
	var b strings.Builder
	for range 1 + g.rng.IntN(3) {
		b.WriteString(g.simple(depth))
	}
	if g.rng.IntN(6) == 0 {
		return []string{".a > ", "[ship] ", "#e1 "}[g.rng.IntN(3)] + b.String()
	}
	return b.String()
}

func (g *relGen) selector() string {
	s := g.compound(3)
	if g.rng.IntN(8) == 0 {
		s += ", " + g.compound(2)
	}
	return s
}
