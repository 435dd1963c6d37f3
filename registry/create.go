package registry

import "github.com/scenecs/scenecs/ecs"

// Creating entities
//
// Every entity made from a description goes through [Registry.Create]
// (or [Privileged.Create]): a scene's entities as the loader builds and
// hot-reloads them, an entity POSTed to the inspection API, a mixin
// instance ([Mixins.Instantiate], the spawner) and every entity of a
// prefab's instance ([Prefabs.Instantiate] and its parts). So an
// entity gets its id, classes, part key and components in one order,
// whoever asks.

// CreateSpec describes an entity to make with [Registry.Create].
type CreateSpec struct {
	// ID is the entity's id ("" for none); it must be free.
	ID string
	// Classes are its class names.
	Classes []string
	// Mixins are mixin ids, expanded (see [Mixins.Expand]) and
	// composed under Components, per property (see [Mixins.Compose]).
	Mixins []string
	// Components are its own components. Without Mixins, and with each
	// name given once, they are set as given (a loader's composed
	// components); otherwise they are composed over the mixins'.
	Components []NamedPatch
	// PartKey is, for a part of a prefab's instance, its name inside the
	// prefab (see [Prefabs.SetPartKey]); "" for other entities.
	PartKey string
}

// Create makes an entity as spec describes it, a child of parent (a
// root if parent is the zero Entity): id, classes and part key first,
// then its components in one storage move, their init and update hooks
// in dependency order (see [Registry.SetMany]). A read-only component
// among them is refused (*ReadOnlyError) before anything is made. On any
// error nothing is left: the entity is destroyed and the zero Entity
// returned. Create emits no event; [Mixins.Instantiate] and prefab
// instantiation emit "loaded" once the whole entity is made, and so does
// the loader once a scene is built.
func (r *Registry) Create(parent ecs.Entity, spec CreateSpec) (ecs.Entity, error) {
	return r.create(parent, &spec, false)
}

// Create is [Registry.Create], read-only components included: the
// loader builds a scene's prefab instances, whose markers it writes,
// through it.
func (p Privileged) Create(parent ecs.Entity, spec CreateSpec) (ecs.Entity, error) {
	return p.r.create(parent, &spec, true)
}

// create is Create; priv writes read-only components too.
func (r *Registry) create(parent ecs.Entity, spec *CreateSpec, priv bool) (ecs.Entity, error) {
	comps := spec.Components
	if len(spec.Mixins) > 0 || repeatsName(comps) {
		ms, err := r.Mixins().Expand(spec.Mixins)
		if err != nil {
			return ecs.Entity{}, err
		}
		comps = r.Mixins().Compose(ms, comps)
	}
	if !priv {
		for _, np := range comps {
			if err := r.checkWritable("add", np.Name); err != nil {
				return ecs.Entity{}, err
			}
		}
	}
	e := r.w.NewEntity()
	if err := r.fill(e, parent, spec, comps, priv); err != nil {
		_ = r.w.Destroy(e)
		return ecs.Entity{}, err
	}
	return e, nil
}

// fill gives the new entity e its parent, id, classes, part key and
// components.
func (r *Registry) fill(e, parent ecs.Entity, spec *CreateSpec, comps []NamedPatch, priv bool) error {
	if !parent.IsZero() {
		if err := r.w.SetParent(e, parent); err != nil {
			return err
		}
	}
	if spec.ID != "" {
		if err := r.SetEntityID(e, spec.ID); err != nil {
			return err
		}
	}
	if len(spec.Classes) > 0 {
		if err := r.SetClasses(e, spec.Classes); err != nil {
			return err
		}
	}
	if spec.PartKey != "" {
		r.Prefabs().SetPartKey(e, spec.PartKey)
	}
	return r.setManyFresh(e, comps, priv)
}

// repeatsName reports whether a component name occurs twice in nps.
func repeatsName(nps []NamedPatch) bool {
	if len(nps) > 16 {
		seen := make(map[string]bool, len(nps))
		for _, np := range nps {
			if seen[np.Name] {
				return true
			}
			seen[np.Name] = true
		}
		return false
	}
	for i := range nps {
		for j := range i {
			if nps[i].Name == nps[j].Name {
				return true
			}
		}
	}
	return false
}
