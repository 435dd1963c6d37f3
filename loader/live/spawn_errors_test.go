package live

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// TestSpawnErrorsGrouping: spawnErrors groups the spawner errors of a
// build by their type and their own error, not by cutting message text:
// spawners failing the same way are reported once with a count, whatever
// their ids say (even ids that contain ": spawner: "); different failures
// and errors that are not a spawner's stay apart, in order.
func TestSpawnErrorsGrouping(t *testing.T) {
	w := ecs.NewWorld()
	ents := w.NewEntities(6)
	limit := fmt.Errorf("spawner: %w: too many", registry.ErrLimit)
	cycle := errors.New("mixin cycle: a -> a")
	other := errors.New("registry: 3 more errors")
	spawnErr := func(i int, id string, err error) error {
		return &registry.SpawnError{Entity: ents[i], EntityID: id, Err: err}
	}
	for _, tt := range []struct {
		name string
		errs []error
		want []string
	}{
		{"one", []error{spawnErr(0, "a", limit)},
			[]string{"registry: entity #a: spawner: registry limit reached: too many"}},
		{"same failure, other entities", []error{spawnErr(0, "a", limit), spawnErr(1, "", limit), spawnErr(2, "b", limit)},
			[]string{"registry: entity #a: spawner: registry limit reached: too many (and 2 more spawners like it)"}},
		{"ids that look like messages", []error{spawnErr(0, "x: spawner: y", limit), spawnErr(1, "z: spawner: y", cycle), spawnErr(2, "q", cycle)},
			[]string{"registry: entity #x: spawner: y: spawner: registry limit reached: too many",
				"registry: entity #z: spawner: y: mixin cycle: a -> a (and 1 more spawners like it)"}},
		{"same text, different errors", []error{spawnErr(0, "a", errors.New("spawner: boom")), spawnErr(1, "b", errors.New("spawner: boom"))},
			[]string{"registry: entity #a: spawner: boom (and 1 more spawners like it)"}},
		{"wrapped", []error{fmt.Errorf("tick: %w", spawnErr(0, "a", limit)), spawnErr(1, "b", limit)},
			[]string{"tick: registry: entity #a: spawner: registry limit reached: too many (and 1 more spawners like it)"}},
		{"not a spawner's", []error{spawnErr(0, "a", cycle), other, other},
			[]string{"registry: entity #a: mixin cycle: a -> a", "registry: 3 more errors", "registry: 3 more errors"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range spawnErrors(errors.Join(tt.errs...), nil) {
				got = append(got, e.Error())
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
	// A single error, not joined, is one load error.
	if got := spawnErrors(spawnErr(0, "a", limit), nil); len(got) != 1 || got[0].Msg != "registry: entity #a: spawner: registry limit reached: too many" {
		t.Errorf("single error: %v", got)
	}
}
