package components

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
)

// GeometryName is the name of the geometry component.
const GeometryName = "geometry"

// Geometry is the shape of an entity, with A-Frame's primitives and the
// size properties each of them reads: box (width, height, depth), sphere
// (radius), cylinder (radius, height), cone (radiusBottom, radiusTop,
// height), plane (width, height) and torus (radius, radiusTubular, arc).
// A primitive ignores the properties of the others, as in A-Frame. The
// shape is centred on the entity's position and then turned and scaled by
// its rotation and scale; cylinders and cones stand along y, a plane faces
// +z, a torus lies in the xy plane.
//
// One schema serves every primitive, so a property two primitives share
// has one default: the sizes take A-Frame's (1, radiusTop 0.01,
// radiusTubular 0.2, arc 360). The segment counts differ between A-Frame's
// primitives (segmentsHeight is 1 for a box and 18 for a sphere): 0, their
// default here, means the primitive's own A-Frame default, which
// [Geometry.Segments] gives. The segments say how finely a renderer
// tessellates the shape; the inspector's view draws each primitive with
// one tessellation of its own, whatever they say.
type Geometry struct {
	Primitive string `scene:"primitive,oneOf=box|sphere|cylinder|cone|plane|torus"`

	Width  float64 `scene:"width,default=1,min=0"`
	Height float64 `scene:"height,default=1,min=0"`
	Depth  float64 `scene:"depth,default=1,min=0"`

	Radius        float64 `scene:"radius,default=1,min=0"`
	RadiusTop     float64 `scene:"radiusTop,default=0.01,min=0"`
	RadiusBottom  float64 `scene:"radiusBottom,default=1,min=0"`
	RadiusTubular float64 `scene:"radiusTubular,default=0.2,min=0"`
	Arc           float64 `scene:"arc,default=360,min=0,max=360"`
	OpenEnded     bool    `scene:"openEnded"`

	SegmentsWidth   int `scene:"segmentsWidth,default=0,min=0"`
	SegmentsHeight  int `scene:"segmentsHeight,default=0,min=0"`
	SegmentsDepth   int `scene:"segmentsDepth,default=0,min=0"`
	SegmentsRadial  int `scene:"segmentsRadial,default=0,min=0"`
	SegmentsTubular int `scene:"segmentsTubular,default=0,min=0"`
}

// GeometrySegments are the segment counts of a geometry, each the value
// written or, where 0 was, the primitive's A-Frame default. A count the
// primitive does not read is 0.
type GeometrySegments struct {
	Width, Height, Depth, Radial, Tubular int
}

// geometryDefaults are A-Frame's default segment counts per primitive.
var geometryDefaults = map[string]GeometrySegments{
	"box":      {Width: 1, Height: 1, Depth: 1},
	"sphere":   {Width: 36, Height: 18},
	"cylinder": {Height: 18, Radial: 36},
	"cone":     {Height: 18, Radial: 36},
	"plane":    {Width: 1, Height: 1},
	"torus":    {Radial: 36, Tubular: 32},
}

// Segments returns g's segment counts: those it writes, and A-Frame's
// default for its primitive where it writes 0.
func (g *Geometry) Segments() GeometrySegments {
	d := geometryDefaults[g.Primitive]
	pick := func(v, def int) int {
		if v == 0 || def == 0 {
			return def
		}
		return v
	}
	return GeometrySegments{
		Width:   pick(g.SegmentsWidth, d.Width),
		Height:  pick(g.SegmentsHeight, d.Height),
		Depth:   pick(g.SegmentsDepth, d.Depth),
		Radial:  pick(g.SegmentsRadial, d.Radial),
		Tubular: pick(g.SegmentsTubular, d.Tubular),
	}
}

// Size returns the extent of g's shape along x, y and z, before the
// entity's scale: what a unit box scaled by it would cover.
func (g *Geometry) Size() registry.Vec3 {
	switch g.Primitive {
	case "sphere":
		return registry.Vec3{X: 2 * g.Radius, Y: 2 * g.Radius, Z: 2 * g.Radius}
	case "cylinder":
		return registry.Vec3{X: 2 * g.Radius, Y: g.Height, Z: 2 * g.Radius}
	case "cone":
		r := max(g.RadiusTop, g.RadiusBottom)
		return registry.Vec3{X: 2 * r, Y: g.Height, Z: 2 * r}
	case "plane":
		return registry.Vec3{X: g.Width, Y: g.Height}
	case "torus":
		r := g.Radius + g.RadiusTubular
		return registry.Vec3{X: 2 * r, Y: 2 * r, Z: 2 * g.RadiusTubular}
	default:
		return registry.Vec3{X: g.Width, Y: g.Height, Z: g.Depth}
	}
}

// registerGeometry registers the geometry component.
func registerGeometry(reg *registry.Registry, b *Builtins) error {
	c, err := registry.Register(reg, GeometryName, registry.Definition[Geometry]{})
	if err != nil {
		return err
	}
	b.Geometry = ecs.NewMap[Geometry](reg.World(), c.ID)
	return nil
}
