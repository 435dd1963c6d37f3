package behaviour_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// fanScene is issue 32's: a handler that emits its own event twice asks
// for 2³² deliveries once a timer starts it (depth is capped at 32,
// breadth is not).
const fanScene = `
entities:
  - id: bomb
    timer: "delay: 0; event: a"
    on__a: "emit: a, a"
`

// TestFanOutEndsAtTheBudget: the fanning scene's tick makes at most
// Limits.MaxDeliveries deliveries, and Tick returns one *BudgetError
// naming the entity, the handler, the event and the budget; the next
// tick has a budget of its own and nothing to say.
func TestFanOutEndsAtTheBudget(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	must(t, err)
	reg.Limits.MaxDeliveries = 5000
	sc, err := loader.LoadBytes(reg, "fan.yaml", []byte(fanScene), loader.Options{})
	must(t, err)
	bomb, _ := sc.Entity("bomb")
	err = reg.Tick(1.0 / 60)
	var be *registry.BudgetError
	if !errors.As(err, &be) || be.Entity != bomb || be.Listener != "on__a" || be.Event != "a" || be.Budget != 5000 || be.Window != "tick" {
		t.Fatalf("Tick: %v, want a budget error of #bomb's on__a", err)
	}
	want := "entity #bomb: on__a: a: more than 5000 event deliveries in one tick (Limits.MaxDeliveries): the rest were dropped"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("Tick's error\n%v\nlacks %s", err, want)
	}
	hs := b.Handlers.Of(bomb)
	if len(hs) != 1 || hs[0].Fired == 0 || hs[0].Fired > 5000 {
		t.Errorf("handlers %+v: want between 1 and 5000 firings", hs)
	}
	if err := reg.Tick(1.0 / 60); err != nil {
		t.Errorf("next tick: %v", err)
	}
}

// TestFanOutFromOutsideATick: an event emitted by the program between
// ticks, and one a hot reload's new handler sets off, are bounded the
// same way (each call its own budget).
func TestFanOutFromOutsideATick(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	_, err := components.Register(reg)
	must(t, err)
	reg.Limits.MaxDeliveries = 3000
	sc, err := loader.LoadBytes(reg, "fan.yaml", []byte(`
entities:
  - id: bomb
    on__a: "emit: a, a"
`), loader.Options{})
	must(t, err)
	bomb, _ := sc.Entity("bomb")
	reg.Events().Emit(bomb, "a", nil, true)
	var be *registry.BudgetError
	if err := reg.TakeErrors(); !errors.As(err, &be) || be.Budget != 3000 || be.Window != "" {
		t.Fatalf("after an Emit: %v", err)
	}
	// A save that adds a handler of loaded which sets the bomb off.
	d := sc.Diff(mustPlan(t, reg, `
entities:
  - id: bomb
    on__a: "emit: a, a"
  - id: fuse
    on__loaded: "target: #bomb; emit: a"
`))
	must(t, sc.Apply(d))
	if err := reg.TakeErrors(); !errors.As(err, &be) || be.Entity != bomb || be.Window != "reload" {
		t.Fatalf("after a reload: %v", err)
	}
}

// mustPlan compiles a scene's text against reg.
func mustPlan(t *testing.T, reg *registry.Registry, text string) *plan.Plan {
	t.Helper()
	doc, err := scenefile.Read("fan.yaml", []byte(text), scenefile.DefaultLimits())
	must(t, err)
	p, err := plan.Compile(doc, reg, plan.Options{})
	must(t, err)
	return p
}

// TestSpawnBombStopsAtTheLimit: issue 32's prefab whose handler spawns
// two of itself doubled every tick (262,143 entities at tick 17, then a
// fatal error); on's spawn counts the instance against
// Limits.MaxEntities before making it, so the scene stops at the limit,
// reporting which entity's handler tried to spawn what.
func TestSpawnBombStopsAtTheLimit(t *testing.T) {
	reg := registry.New(ecs.NewWorld())
	_, err := components.Register(reg)
	must(t, err)
	reg.Limits.MaxEntities = 1000
	_, err = loader.LoadBytes(reg, "bomb.yaml", []byte(`
prefabs:
  egg:
    timer: "delay: 0; event: hatch"
    on__hatch: "spawn: egg, egg"
entities:
  - id: nest
    prefab: egg
`), loader.Options{})
	must(t, err)
	var errs []string
	for tick := 1; tick <= 14; tick++ {
		if err := reg.Tick(1.0 / 60); err != nil {
			errs = append(errs, err.Error())
		}
		if n := reg.World().Len(); n > 1000 {
			t.Fatalf("tick %d: %d entities, past Limits.MaxEntities", tick, n)
		}
	}
	if n := reg.World().Len(); n != 1000 {
		t.Errorf("%d entities, want the limit (1000)", n)
	}
	all := strings.Join(errs, "\n")
	want := `: on__hatch: spawn egg: registry: instance of prefab "egg": registry limit reached: 1 more entities with 1000 live would pass Limits.MaxEntities (1000)`
	if len(errs) == 0 || !strings.HasPrefix(errs[0], "entity ") || !strings.Contains(errs[0], want) {
		t.Errorf("errors:\n%s\nwant one naming the entity, its handler and %s", all, want)
	}
}
