package registry_test

import (
	"fmt"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// Health is a component: a Go struct whose `scene` tags give the property
// names, defaults and bounds.
type Health struct {
	HP    int     `scene:"hp,default=100,min=0"`
	Max   int     `scene:"max,default=100,min=1"`
	Regen float64 `scene:"regen,default=0"` // hit points per second
}

// Example_lifecycle registers a component with hooks, a system, a
// data-only component declared at run time and a mixin, then runs a few
// frames. docs/components.md walks through the same code.
func Example_lifecycle() {
	w := ecs.NewWorld()
	r := registry.New(w)
	if _, err := components.Register(r); err != nil {
		panic(err)
	}

	// A component with hooks.
	_, err := registry.Register(r, "health", registry.Definition[Health]{
		Dependencies: []string{"position"},
		Init: func(c *registry.Context, h *Health) {
			fmt.Println("init", c.Name, h.HP)
		},
		Update: func(c *registry.Context, h, old *Health) {
			fmt.Printf("update hp %d -> %d\n", old.HP, h.HP)
		},
		Tick: func(c *registry.Context, h *Health) {
			h.HP = min(h.Max, h.HP+int(h.Regen*c.Delta))
			if h.HP == 0 {
				c.Emit("died", nil) // bubbles to the ancestors
			}
		},
		Remove: func(c *registry.Context, h *Health) {
			fmt.Println("remove", c.Name)
		},
	})
	if err != nil {
		panic(err)
	}

	// A system: configured from the scene root, ticks before components.
	type Clock struct {
		Scale float64 `scene:"scale,default=1"`
	}
	_, err = registry.RegisterSystem(r, "clock", registry.SystemDefinition[Clock]{
		Update: func(s *registry.SystemContext, cfg, old *Clock) {
			fmt.Printf("clock scale %g -> %g\n", old.Scale, cfg.Scale)
		},
	})
	if err != nil {
		panic(err)
	}

	// A data-only component declared at run time.
	schema, err := schema.NewSchema([]registry.PropSpec{
		{Name: "team", OneOf: []string{"red", "blue"}},
		{Name: "rank", Type: "int", Default: "1"},
	}, r.Types())
	if err != nil {
		panic(err)
	}
	if _, err := r.Declare("faction", schema); err != nil {
		panic(err)
	}

	// A mixin, and an entity made from it with its own values on top.
	r.Mixins().Define(&registry.Mixin{ID: "soldier", Components: []registry.NamedPatch{
		{Name: "health", Patch: mustParse(r, "health", "hp: 80; regen: 10")},
		{Name: "faction", Patch: mustParse(r, "faction", "team: blue")},
	}})
	squad := w.NewEntity()
	r.Events().On(squad, "died", func(ev *registry.Event) { fmt.Println("died:", ev.Target == ev.Current) })
	e, err := r.Mixins().Instantiate(squad, []string{"soldier"}, []registry.NamedPatch{
		{Name: "faction", Patch: mustParse(r, "faction", "rank: 3")},
	})
	if err != nil {
		panic(err)
	}

	clock, _ := r.System("clock")
	if err := clock.ConfigureAttr("scale: 2"); err != nil {
		panic(err)
	}
	r.Tick(1) // starts the systems, then ticks
	fmt.Println(attr(r, e, "health"), "|", attr(r, e, "faction"), "|", attr(r, e, "position"))

	if err := r.Set(e, "health", "hp: 0; regen: 0"); err != nil { // merges
		panic(err)
	}
	r.Tick(1)
	_ = w.Destroy(e)

	// Errors say what and where.
	fmt.Println(r.Set(w.NewEntity(), "helth", "hp: 1"))
	fmt.Println(r.Set(w.NewEntity(), "health__2", ""))

	// Output:
	// init health 80
	// update hp 0 -> 80
	// clock scale 0 -> 2
	// hp: 90; max: 100; regen: 10 | team: blue; rank: 3 | 0 0 0
	// update hp 90 -> 0
	// died: false
	// remove health
	// unknown component "helth" (did you mean "health"?)
	// registry: component "health" is not multiple: instance name "health__2" is not allowed
}

func mustParse(r *registry.Registry, name, text string) registry.Patch {
	c, _ := r.Component(name)
	p, err := c.Schema.ParseAttr(name, text)
	if err != nil {
		panic(err)
	}
	return p
}

func attr(r *registry.Registry, e ecs.Entity, name string) string {
	s, err := r.Attr(e, name)
	if err != nil {
		return err.Error()
	}
	return s
}
