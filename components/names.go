package components

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// Names returns the names of the components and systems [Register]
// registers, components first, each in registration order. A program
// passes them to the loader (loader.Options.Builtins), which then tells
// a program that loads a scene using them without having called Register
// so, in one error, instead of one unknown name per use. Each call
// registers the built-ins on a registry of its own to learn them, so the
// list is always Register's.
func Names() []string {
	r := registry.New(ecs.NewWorld())
	if _, err := Register(r); err != nil {
		return nil
	}
	names := r.Names()
	for _, s := range r.Systems() {
		names = append(names, s.Name)
	}
	return names
}
