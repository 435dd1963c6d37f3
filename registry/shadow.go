package registry

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
)

// Shadow declares a data-only component under the name of a component
// the program registered, for the code that owns declarations: the
// loader, for a scene that declares its own component of a name a
// later version of the program took (a built-in `timer`, say). From then
// on the name is the declared component in this Registry; the program's
// stays registered under its ecs ID, unreachable by name, its systems
// working on its storage, which no entity holds. Refused for a read-only
// component and while any entity holds the program's.
func (p Privileged) Shadow(name string, s *Schema) (*Component, error) {
	if err := p.CheckShadow(name); err != nil {
		return nil, err
	}
	r := p.r
	c, err := r.newStorage(name, s)
	if err != nil {
		return nil, err
	}
	r.switchOver(r.comps[name], c)
	return c, nil
}

// CheckShadow returns the error [Privileged.Shadow] would return for
// name, without shadowing it: for a caller that checks every change
// before it makes the first.
func (p Privileged) CheckShadow(name string) error {
	r := p.r
	old, ok := r.comps[name]
	switch {
	case !ok || old.Declared:
		return fmt.Errorf("registry: %q is not a component of the program", name)
	case old.ReadOnly():
		return fmt.Errorf("registry: component %q is read-only; a scene cannot declare its own", name)
	}
	for _, id := range old.InstanceIDs() {
		f := ecs.NewFilter(r.w, ecs.With(id))
		q := f.Query()
		held := q.Next()
		q.Close()
		f.Close()
		if held {
			return fmt.Errorf("registry: component %q is the program's and entities hold it: a scene cannot declare its own while they do", name)
		}
	}
	return nil
}
