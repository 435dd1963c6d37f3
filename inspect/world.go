package inspect

// The world transform in the API: the world component (see
// components.WorldTransform), read-only, is shown as "world" by GET /api/entities/REF
// and sent by GET /api/transforms. Like every read-only component (the
// registry's flag, registry.Component.ReadOnly: world, the prefab marker,
// a program's own), it cannot be set, removed or given to a new entity
// through the API: the editor refuses it, and the answer is 409 with the
// registry's reason.

// defaultTransforms is the components GET /api/transforms sends when the
// request names none: the world transforms (position, rotation, scale:
// nine floats per entity) when a read-only world component is registered
// (the built-ins' world transform, which its owner computes), else
// position.
func (in *Inspector) defaultTransforms() string {
	if c, ok := in.reg.Component(worldName); ok && c.ReadOnly() {
		return worldName
	}
	return "position"
}

// worldName is the name of the world transform, the read-only component
// the built-ins compute from position, rotation and scale: the API shows
// it apart ("world" in GET /api/entities/REF, the default of GET
// /api/transforms).
const worldName = "world"
