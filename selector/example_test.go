package selector_test

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/selector"
)

type exampleHealth struct {
	HP int `scene:"hp,default=100"`
}

type exampleTag struct{}

// A selector is compiled once against a registry and run as a live query.
func ExampleCompile() {
	w := ecs.NewWorld()
	r := registry.New(w)
	registry.Register(r, "health", registry.Definition[exampleHealth]{})
	registry.Register(r, "enemy", registry.Definition[exampleTag]{})

	level := w.NewEntity()
	r.SetEntityID(level, "level")
	for i, hp := range []string{"80", "15", "5"} {
		e := w.NewEntity()
		w.SetParent(e, level)
		r.SetEntityID(e, fmt.Sprint("orc", i))
		r.Set(e, "enemy", "")
		r.Set(e, "health", "hp: "+hp)
	}

	weak := selector.MustCompile("#level > [enemy][health.hp<20]", r)
	show := func() {
		var ids []string
		for _, e := range weak.QueryAll(nil) {
			ids = append(ids, r.EntityID(e))
		}
		fmt.Println(ids)
	}
	show()
	orc0, _ := r.EntityByID("orc0")
	r.Set(orc0, "health", "hp: 10") // values are read at query time
	show()

	_, err := selector.Compile("[helth.hp<20]", r)
	fmt.Println(err)
	// Output:
	// [orc1 orc2]
	// [orc0 orc1 orc2]
	// selector:1:1: unknown component "helth" (did you mean "health"?)
}

// QueryFrom runs a selector relative to an entity: `:scope` is that
// entity, and only its descendants are candidates.
func ExampleSelector_QueryFrom() {
	w := ecs.NewWorld()
	r := registry.New(w)
	player := w.NewEntity()
	for _, c := range []string{"weapon", "shield", "weapon"} {
		e := w.NewEntity()
		w.SetParent(e, player)
		r.SetClasses(e, []string{c})
	}
	s := selector.MustCompile(":scope > .weapon", r)
	fmt.Println(len(s.QueryFrom(player, nil)))
	// Output: 2
}
