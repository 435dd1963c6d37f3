package loader

// The scene model's types were named Entity, Component and Mixin, like
// ecs.Entity, registry.Component and registry.Mixin, which they are not.
// These aliases keep code written against the old names compiling while
// it moves to the new ones; they will be removed.

// Entity is the old name of [EntitySpec].
//
// Deprecated: use EntitySpec; ecs.Entity is the entity itself.
type Entity = EntitySpec

// Component is the old name of [ComponentSpec].
//
// Deprecated: use ComponentSpec; registry.Component is the registered
// component.
type Component = ComponentSpec

// Mixin is the old name of [MixinSpec].
//
// Deprecated: use MixinSpec; registry.Mixin is the compiled mixin.
type Mixin = MixinSpec
