package components_test

import (
	"strings"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// TestGeometry: the geometry component takes A-Frame's primitives and
// their size properties with A-Frame's defaults, refuses other
// primitives and negative sizes, and gives each primitive's own segment
// counts where none are written.
func TestGeometry(t *testing.T) {
	for _, c := range []struct {
		attr string
		want components.Geometry
		segs components.GeometrySegments
		size registry.Vec3
	}{
		{"", components.Geometry{Primitive: "box", Width: 1, Height: 1, Depth: 1, Radius: 1, RadiusTop: 0.01, RadiusBottom: 1, RadiusTubular: 0.2, Arc: 360},
			components.GeometrySegments{Width: 1, Height: 1, Depth: 1}, registry.Vec3{X: 1, Y: 1, Z: 1}},
		{"primitive: sphere; radius: 0.5", components.Geometry{Primitive: "sphere", Width: 1, Height: 1, Depth: 1, Radius: 0.5, RadiusTop: 0.01, RadiusBottom: 1, RadiusTubular: 0.2, Arc: 360},
			components.GeometrySegments{Width: 36, Height: 18}, registry.Vec3{X: 1, Y: 1, Z: 1}},
		{"primitive: cone; height: 2; radiusBottom: 0.5; segmentsRadial: 8", components.Geometry{Primitive: "cone", Width: 1, Height: 2, Depth: 1, Radius: 1, RadiusTop: 0.01, RadiusBottom: 0.5, RadiusTubular: 0.2, Arc: 360, SegmentsRadial: 8},
			components.GeometrySegments{Height: 18, Radial: 8}, registry.Vec3{X: 1, Y: 2, Z: 1}},
		{"primitive: torus; radius: 2; radiusTubular: 0.5", components.Geometry{Primitive: "torus", Width: 1, Height: 1, Depth: 1, Radius: 2, RadiusTop: 0.01, RadiusBottom: 1, RadiusTubular: 0.5, Arc: 360},
			components.GeometrySegments{Radial: 36, Tubular: 32}, registry.Vec3{X: 5, Y: 5, Z: 1}},
		{"primitive: plane; width: 4; height: 3", components.Geometry{Primitive: "plane", Width: 4, Height: 3, Depth: 1, Radius: 1, RadiusTop: 0.01, RadiusBottom: 1, RadiusTubular: 0.2, Arc: 360},
			components.GeometrySegments{Width: 1, Height: 1}, registry.Vec3{X: 4, Y: 3, Z: 0}},
		{"primitive: cylinder; radius: 0.25; height: 3", components.Geometry{Primitive: "cylinder", Width: 1, Height: 3, Depth: 1, Radius: 0.25, RadiusTop: 0.01, RadiusBottom: 1, RadiusTubular: 0.2, Arc: 360},
			components.GeometrySegments{Height: 18, Radial: 36}, registry.Vec3{X: 0.5, Y: 3, Z: 0.5}},
	} {
		_, r, b := newReg(t)
		e := r.World().NewEntity()
		ok(t, r.Set(e, components.GeometryName, c.attr))
		g := b.Geometry.Get(e)
		if g == nil || *g != c.want {
			t.Errorf("geometry %q: %+v\nwant %+v", c.attr, g, c.want)
			continue
		}
		if s := g.Segments(); s != c.segs {
			t.Errorf("geometry %q: segments %+v, want %+v", c.attr, s, c.segs)
		}
		if s := g.Size(); s != c.size {
			t.Errorf("geometry %q: size %+v, want %+v", c.attr, s, c.size)
		}
	}
	_, r, _ := newReg(t)
	e := r.World().NewEntity()
	for attr, want := range map[string]string{
		"primitive: pyramid": "pyramid",
		"radius: -1":         "radius",
		"arc: 400":           "arc",
		"segmentsRadial: -3": "segmentsRadial",
	} {
		err := r.Set(e, components.GeometryName, attr)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("geometry %q: error %v, want one naming %q", attr, err, want)
		}
	}
}
