package selector_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"unsafe"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/selector"
)

// relWorld is a fake selector.Source with Relations over a small World:
// tags ship and planet, a string faction, an int hp, a reference docked
// (one target) and a list holds. Holders scans the World (a fake: the
// registry keeps an index); calls are counted so that tests can see the
// plan's way.
type relWorld struct {
	w       *ecs.World
	id      map[ecs.Entity]string
	byID    map[string]ecs.Entity
	classes map[ecs.Entity][]string
	comps   map[string]ecs.ID
	faction ecs.Map[string]
	hp      ecs.Map[int]
	docked  ecs.Map[ecs.Entity]
	holds   ecs.Map[[]ecs.Entity]

	targetCalls, holderCalls int
}

func newRelWorld() *relWorld {
	w := ecs.NewWorld()
	f := &relWorld{w: w, id: map[ecs.Entity]string{}, byID: map[string]ecs.Entity{},
		classes: map[ecs.Entity][]string{}, comps: map[string]ecs.ID{}}
	ship, _ := w.RegisterTag("ship")
	planet, _ := w.RegisterTag("planet")
	f.faction = ecs.MustRegister[string](w, "faction")
	f.hp = ecs.MustRegister[int](w, "hp")
	f.docked = ecs.MustRegister[ecs.Entity](w, "docked")
	f.holds = ecs.MustRegister[[]ecs.Entity](w, "holds")
	f.comps = map[string]ecs.ID{"ship": ship, "planet": planet, "faction": f.faction.ID(),
		"hp": f.hp.ID(), "docked": f.docked.ID(), "holds": f.holds.ID()}
	return f
}

func (f *relWorld) World() *ecs.World { return f.w }

func (f *relWorld) ComponentIDs(name string) ([]ecs.ID, error) {
	if id, ok := f.comps[name]; ok {
		return []ecs.ID{id}, nil
	}
	return nil, fmt.Errorf("unknown component %q", name)
}

func (f *relWorld) PropertyReader(comp, prop string) (selector.PropertyReader, error) {
	switch {
	case comp == "faction" && prop == "":
		return selector.PropertyReader{Kind: selector.KindString, Type: "string", Field: selector.FieldString,
			Str: func(p unsafe.Pointer) string { return *(*string)(p) }}, nil
	case comp == "hp" && prop == "":
		return selector.PropertyReader{Kind: selector.KindInt, Type: "int", Field: selector.FieldInt,
			Num: func(p unsafe.Pointer) float64 { return float64(*(*int)(p)) }}, nil
	case comp == "docked" || comp == "holds":
		return selector.PropertyReader{}, fmt.Errorf("%s holds references: compare it with #id or $var", comp)
	}
	return selector.PropertyReader{}, fmt.Errorf("no property %q of %q", prop, comp)
}

func (f *relWorld) EntityID(e ecs.Entity) string { return f.id[e] }
func (f *relWorld) EntityByID(id string) (ecs.Entity, bool) {
	e, ok := f.byID[id]
	return e, ok && f.w.Alive(e)
}
func (f *relWorld) HasClass(e ecs.Entity, c string) bool { return slices.Contains(f.classes[e], c) }
func (f *relWorld) ClassMembers(c string) []ecs.Entity {
	var out []ecs.Entity
	for e, cs := range f.classes {
		if slices.Contains(cs, c) && f.w.Alive(e) {
			out = append(out, e)
		}
	}
	return out
}

// refs returns e's references through comp, dead ones included.
func (f *relWorld) refs(comp string, e ecs.Entity) []ecs.Entity {
	switch comp {
	case "docked":
		if p := f.docked.Get(e); p != nil {
			return []ecs.Entity{*p}
		}
	case "holds":
		if p := f.holds.Get(e); p != nil {
			return *p
		}
	}
	return nil
}

func (f *relWorld) Relation(name string) (selector.Relation, error) {
	id, ok := f.comps[name]
	if name != "docked" && name != "holds" {
		if ok {
			return selector.Relation{}, fmt.Errorf("%s holds no references", name)
		}
		return selector.Relation{}, fmt.Errorf("unknown relation %q", name)
	}
	return selector.Relation{IDs: []ecs.ID{id},
		Targets: func(e ecs.Entity, dst []ecs.Entity) []ecs.Entity {
			f.targetCalls++
			for _, t := range f.refs(name, e) {
				if f.w.Alive(t) {
					dst = append(dst, t)
				}
			}
			return dst
		},
		Holders: func(t ecs.Entity, dst []ecs.Entity) []ecs.Entity {
			f.holderCalls++
			for h := range f.w.All() {
				if slices.Contains(f.refs(name, h), t) {
					dst = append(dst, h)
				}
			}
			return dst
		}}, nil
}

// add makes an entity with an id (if not ""), under parent (zero: a root).
func (f *relWorld) add(id string, parent ecs.Entity, comps ...string) ecs.Entity {
	e := f.w.NewEntity()
	if !parent.IsZero() {
		if err := f.w.SetParent(e, parent); err != nil {
			panic(err)
		}
	}
	if id != "" {
		f.id[e], f.byID[id] = id, e
	}
	for _, c := range comps {
		if err := f.w.Add(e, f.comps[c]); err != nil {
			panic(err)
		}
	}
	return e
}

// randomRelWorld builds n entities with random hierarchy, ids, classes,
// components and references, then destroys a few (leaving references to
// dead entities).
func randomRelWorld(rng *rand.Rand, n int) *relWorld {
	f := newRelWorld()
	var es []ecs.Entity
	for i := range n {
		var parent ecs.Entity
		if i > 0 && rng.IntN(3) > 0 {
			parent = es[rng.IntN(i)]
		}
		id := ""
		if rng.IntN(4) > 0 {
			id = "e" + strconv.Itoa(i)
		}
		e := f.add(id, ecs.Entity{})
		if err := f.w.InsertChild(parent, e, rng.IntN(3)); err != nil {
			panic(err)
		}
		for _, c := range []string{"a", "b"} {
			if rng.IntN(2) == 0 {
				f.classes[e] = append(f.classes[e], c)
			}
		}
		if rng.IntN(2) == 0 {
			f.w.Add(e, f.comps["ship"])
		} else if rng.IntN(2) == 0 {
			f.w.Add(e, f.comps["planet"])
		}
		if rng.IntN(5) < 3 {
			f.faction.Set(e, []string{"red", "blue", "green"}[rng.IntN(3)])
		}
		if rng.IntN(2) == 0 {
			f.hp.Set(e, rng.IntN(5))
		}
		es = append(es, e)
	}
	for _, e := range es {
		if rng.IntN(5) < 2 {
			f.docked.Set(e, es[rng.IntN(n)])
		}
		if rng.IntN(10) < 3 {
			var l []ecs.Entity
			for range rng.IntN(4) {
				if t := es[rng.IntN(n)]; !slices.Contains(l, t) {
					l = append(l, t)
				}
			}
			f.holds.Set(e, l)
		}
	}
	for range rng.IntN(3) {
		if e := es[rng.IntN(n)]; f.w.Alive(e) {
			f.w.Destroy(e)
		}
	}
	return f
}
