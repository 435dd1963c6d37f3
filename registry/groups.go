package registry

// Prefabs are the prefabs defined on a Registry and the prefab instances
// in its World: definitions by name, instantiation (whole, over mixins
// and own components, or one part), and what an entity is of one (its
// prefab, its part key, what it was made with). Reach them with
// [Registry.Prefabs].
type Prefabs struct{ r *Registry }

// Mixins are the mixins defined on a Registry: named bundles of
// component values that entities list, expanded and composed under their
// own components. Reach them with [Registry.Mixins].
type Mixins struct{ r *Registry }

// Prefabs returns the Registry's prefabs.
func (r *Registry) Prefabs() *Prefabs { return &r.groups.prefabs }

// Mixins returns the Registry's mixins.
func (r *Registry) Mixins() *Mixins { return &r.groups.mixins }

// Events returns the Registry's entity events: listeners, sending
// (bubbling through parents), the "loaded" event, taps that see every
// event (inspectors), and the budget of deliveries per tick and per call
// (Limits.MaxDeliveries). See package [events].
func (r *Registry) Events() *Events { return r.events }

// groups are the Registry's method groups, each pointing back at it.
type groups struct {
	prefabs Prefabs
	mixins  Mixins
}
