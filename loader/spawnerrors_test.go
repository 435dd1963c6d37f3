package loader

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSpawnErrors: the spawner errors of a build are merged by the error
// the registry wrapped with the entity's name, found by unwrapping, not
// by cutting the message: the same wrapped error for several entities is
// reported once with a count; different ones, and errors that wrap
// nothing, stay apart (even if their texts look alike).
func TestSpawnErrors(t *testing.T) {
	depth := errors.New("spawner: registry limit reached: spawners nested 7 deep")
	other := errors.New("spawner: unknown mixin \"egg\"")
	entity := func(id string, err error) error { return fmt.Errorf("registry: entity #%s: %w", id, err) }
	for _, tc := range []struct {
		name string
		errs []error
		want []string
	}{
		{"one", []error{entity("a", depth)}, []string{
			"registry: entity #a: spawner: registry limit reached: spawners nested 7 deep"}},
		{"same wrapped error", []error{entity("a", depth), entity("b", depth), entity("c", depth), entity("d", other)}, []string{
			"registry: entity #a: spawner: registry limit reached: spawners nested 7 deep (and 2 more spawners like it)",
			"registry: entity #d: spawner: unknown mixin \"egg\""}},
		{"same text, not wrapped", []error{
			errors.New("registry: entity #a: spawner: x"), errors.New("registry: entity #b: spawner: x")}, []string{
			"registry: entity #a: spawner: x", "registry: entity #b: spawner: x"}},
		{"counted rest", []error{entity("a", other), entity("b", other), errors.New("registry: 5 more errors")}, []string{
			"registry: entity #a: spawner: unknown mixin \"egg\" (and 1 more spawners like it)",
			"registry: 5 more errors"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := spawnErrors(errors.Join(tc.errs...))
			var got []string
			for _, e := range list {
				got = append(got, e.Msg)
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
