// Package schema describes a component's data apart from any World: the
// types of its properties, its schema, the attribute strings that give
// its values (A-Frame's "hp: 80; regen: 10"), the patches they parse
// into, and the mixins that name sets of patches. Package registry binds
// schemas to components of an [ecs.World] and names these types by
// aliases (registry.Schema, registry.Vec3, ...).
//
// # Outline
//
//   - Property types: a [Type] parses, prints and compares one kind of
//     value (number, int, boolean, string, [Vec2], [Vec3], [Vec4],
//     [Color], array, [SelectorText], [SelectorAllText], time, duration,
//     [Pairs]); a [Types] set holds the built-ins and a program's own
//     ([NewTypes], [Types.Register]). [ParseColor] reads CSS colours.
//   - Schemas: a [Schema] lists a component's properties ([Property]):
//     name, type, default, bounds, choices, and the offset of the field
//     that holds it. It comes from a Go struct and its `scene` tags
//     ([SchemaOf]) or from a list of [PropSpec] ([NewSchema]); a bad one
//     is a [*SchemaError].
//   - Attribute strings: [Schema.ParseAttr] and [Schema.ParseMap] read
//     text or key/value pairs into a [Patch] (a [PropValue] per property
//     given), [Schema.PrintAttr] writes values back as text;
//     [Schema.ValueAt] and [Schema.PairValueAt] find where a property's
//     value is written. A bad value is an [*AttrError] (kinds
//     [InvalidValue], [UnknownProperty], [InvalidSyntax]) holding the
//     type's [*ValueError]; [AttrErrors] lists up to [MaxAttrErrors].
//   - Memory: an [Accessor] reads and writes a property inside a
//     component value ([Schema.Accessors]); [Property.Reader] and
//     [Property.AxisReader] give a selector's value tests their reader.
//   - Mixins: a [Mixin] is a named set of [NamedPatch] values that may
//     list other mixins; [ExpandMixinsFunc] expands a list of ids and
//     [CheckMixins] reports every unknown id and cycle ([*MixinError]).
package schema
