package inspect

import (
	"fmt"
	"net/http"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// The world transform in the API: the read-only world component (see
// components.WorldTransform) is shown as "world" by GET /api/entities/REF
// and sent by GET /api/transforms, and cannot be set, removed or given to
// a new entity.

// readOnly answers a change to the world component: 400, saying why.
func readOnly(c *registry.Component) *reply {
	if !components.IsWorld(c) {
		return nil
	}
	rep := errReply(http.StatusBadRequest, fmt.Sprintf("inspect: %s is computed from position, rotation and scale (read-only): set those instead", c.Name))
	return &rep
}

// defaultTransforms is the components GET /api/transforms sends when the
// request names none: the world transforms (position, rotation, scale:
// nine floats per entity) when the built-in world component is
// registered, else position.
func (in *Inspector) defaultTransforms() string {
	if c, ok := in.reg.Component(components.WorldName); ok && components.IsWorld(c) {
		return components.WorldName
	}
	return "position"
}
