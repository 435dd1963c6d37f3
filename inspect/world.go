package inspect

import (
	"errors"
	"net/http"
	"strings"

	"github.com/scenecs/scenecs/registry"
)

// The world transform in the API: the world component (see
// components.WorldTransform), read-only, is shown as "world" by GET /api/entities/REF
// and sent by GET /api/transforms. Like every read-only component (the
// registry's flag, registry.Component.ReadOnly: world, the prefab marker,
// a program's own), it cannot be set, removed or given to a new entity
// through the API: 409 with the registry's reason.

// writable answers a change op ("set", "remove" or "add") of the
// component name that its definition refuses: 409, saying why; nil if
// the change may go on.
func (in *Inspector) writable(op, name string) *reply {
	c, ok := in.reg.Component(name)
	if !ok {
		return nil // unknown names are answered by the caller
	}
	err := c.CheckWritable(op, name)
	if err == nil || !errors.Is(err, registry.ErrReadOnly) {
		return nil
	}
	rep := readOnlyReply(err)
	return &rep
}

// readOnlyReply answers a write the registry refused as read-only: 409
// with its reason.
func readOnlyReply(err error) reply {
	return errReply(http.StatusConflict, "inspect: "+strings.TrimPrefix(err.Error(), "registry: "))
}

// writeErrReply answers an error of a registry write: 409 for a
// read-only component, else status.
func writeErrReply(status int, err error) reply {
	if errors.Is(err, registry.ErrReadOnly) {
		return readOnlyReply(err)
	}
	return errReply(status, "inspect: "+err.Error())
}

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
