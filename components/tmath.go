package components

import (
	"math"

	"github.com/scenecs/scenecs/registry"
)

// The transform math follows three.js, which A-Frame draws with: a local
// matrix is translation × rotation × scale, the rotation made from Euler
// angles in degrees applied in the order A-Frame sets on every entity,
// 'YXZ' (the matrix is Ry · Rx · Rz), and a world matrix is the parent's
// world matrix × the local matrix.

// Mat4 is a 4x4 transform matrix in column-major order, the order of
// three.js's Matrix4.elements: element (row r, column c) is m[c*4+r], and
// the translation is m[12], m[13], m[14].
type Mat4 [16]float64

// affine is the top three rows of a transform matrix, row-major: element
// (r, c) is a[r*4+c]; the bottom row is 0 0 0 1.
type affine [12]float64

// mat4 returns a as a Mat4.
func (a *affine) mat4() Mat4 {
	return Mat4{
		a[0], a[4], a[8], 0,
		a[1], a[5], a[9], 0,
		a[2], a[6], a[10], 0,
		a[3], a[7], a[11], 1,
	}
}

// linear3 is a 3x3 matrix, row-major.
type linear3 [9]float64

// degToRad and radToDeg convert angles as three.js's MathUtils does.
const (
	degToRad = math.Pi / 180
	radToDeg = 180 / math.Pi
)

// rotScale returns R(r) · diag(s): the linear part of a local matrix
// with rotation r (degrees, order YXZ) and scale s.
func rotScale(r, s registry.Vec3) linear3 {
	if r == (registry.Vec3{}) {
		return linear3{s.X, 0, 0, 0, s.Y, 0, 0, 0, s.Z}
	}
	a, b := math.Cos(r.X*degToRad), math.Sin(r.X*degToRad)
	c, d := math.Cos(r.Y*degToRad), math.Sin(r.Y*degToRad)
	e, f := math.Cos(r.Z*degToRad), math.Sin(r.Z*degToRad)
	ce, cf, de, df := c*e, c*f, d*e, d*f
	return linear3{
		(ce + df*b) * s.X, (de*b - cf) * s.Y, (a * d) * s.Z,
		(a * f) * s.X, (a * e) * s.Y, (-b) * s.Z,
		(cf*b - de) * s.X, (df + ce*b) * s.Y, (a * c) * s.Z,
	}
}

// setLinear sets the linear part of m to l.
func (m *affine) setLinear(l *linear3) {
	m[0], m[1], m[2] = l[0], l[1], l[2]
	m[4], m[5], m[6] = l[3], l[4], l[5]
	m[8], m[9], m[10] = l[6], l[7], l[8]
}

// mulLinear sets the linear part of m to the linear part of p times l.
func (m *affine) mulLinear(p *affine, l *linear3) {
	for r := 0; r < 3; r++ {
		p0, p1, p2 := p[r*4], p[r*4+1], p[r*4+2]
		m[r*4] = p0*l[0] + p1*l[3] + p2*l[6]
		m[r*4+1] = p0*l[1] + p1*l[4] + p2*l[7]
		m[r*4+2] = p0*l[2] + p1*l[5] + p2*l[8]
	}
}

// apply returns p applied to the point v: the translation of p times the
// local matrix whose translation is v.
func (p *affine) apply(v registry.Vec3) registry.Vec3 {
	return registry.Vec3{
		X: p[0]*v.X + p[1]*v.Y + p[2]*v.Z + p[3],
		Y: p[4]*v.X + p[5]*v.Y + p[6]*v.Z + p[7],
		Z: p[8]*v.X + p[9]*v.Y + p[10]*v.Z + p[11],
	}
}

// applyLinear returns the linear part of p applied to the direction v.
func (p *affine) applyLinear(v registry.Vec3) registry.Vec3 {
	return registry.Vec3{
		X: p[0]*v.X + p[1]*v.Y + p[2]*v.Z,
		Y: p[4]*v.X + p[5]*v.Y + p[6]*v.Z,
		Z: p[8]*v.X + p[9]*v.Y + p[10]*v.Z,
	}
}

// compose returns the local matrix of position p, rotation r (degrees)
// and scale s.
func compose(p, r, s registry.Vec3) affine {
	var m affine
	l := rotScale(r, s)
	m.setLinear(&l)
	m[3], m[7], m[11] = p.X, p.Y, p.Z
	return m
}

// decompose returns the rotation (degrees, order YXZ) and scale of the
// linear part of m the way three.js computes an object's world rotation
// and scale: Matrix4.decompose (each scale the length of a column, the
// first negated when the determinant is negative; the columns divided by
// their scales make a quaternion, Quaternion.setFromRotationMatrix),
// then Euler.setFromQuaternion(q, 'YXZ') (x in [-90, 90], y and z in
// [-180, 180]; near x = ±90° the angles carry three.js's rounding noise,
// about 1e-8 rad). Under a shear (a non-uniform scale above a rotation) the
// columns are not orthogonal and the quaternion is three.js's
// approximation. A column of length zero is left as it is (three.js
// would give NaN angles).
func (m *affine) decompose() (rot, scale registry.Vec3) {
	sx := math.Sqrt(m[0]*m[0] + m[4]*m[4] + m[8]*m[8])
	sy := math.Sqrt(m[1]*m[1] + m[5]*m[5] + m[9]*m[9])
	sz := math.Sqrt(m[2]*m[2] + m[6]*m[6] + m[10]*m[10])
	det := m[0]*(m[5]*m[10]-m[6]*m[9]) - m[1]*(m[4]*m[10]-m[6]*m[8]) + m[2]*(m[4]*m[9]-m[5]*m[8])
	if det < 0 {
		sx = -sx
	}
	ix, iy, iz := inv(sx), inv(sy), inv(sz)
	// The rotation matrix (three.js names: m<row><column>, 1-based).
	m11, m12, m13 := m[0]*ix, m[1]*iy, m[2]*iz
	m21, m22, m23 := m[4]*ix, m[5]*iy, m[6]*iz
	m31, m32, m33 := m[8]*ix, m[9]*iy, m[10]*iz
	// Quaternion.setFromRotationMatrix.
	var qx, qy, qz, qw float64
	if tr := m11 + m22 + m33; tr > 0 {
		s := 0.5 / math.Sqrt(tr+1)
		qw, qx, qy, qz = 0.25/s, (m32-m23)*s, (m13-m31)*s, (m21-m12)*s
	} else if m11 > m22 && m11 > m33 {
		s := 2 * math.Sqrt(1+m11-m22-m33)
		qw, qx, qy, qz = (m32-m23)/s, 0.25*s, (m12+m21)/s, (m13+m31)/s
	} else if m22 > m33 {
		s := 2 * math.Sqrt(1+m22-m11-m33)
		qw, qx, qy, qz = (m13-m31)/s, (m12+m21)/s, 0.25*s, (m23+m32)/s
	} else {
		s := 2 * math.Sqrt(1+m33-m11-m22)
		qw, qx, qy, qz = (m21-m12)/s, (m13+m31)/s, (m23+m32)/s, 0.25*s
	}
	// Euler.setFromQuaternion: Matrix4.makeRotationFromQuaternion, then
	// Euler.setFromRotationMatrix with order YXZ.
	x2, y2, z2 := qx+qx, qy+qy, qz+qz
	xx, xz := qx*x2, qx*z2
	yy, yz := qy*y2, qy*z2
	zz := qz * z2
	wx, wy := qw*x2, qw*y2
	xy, wz := qx*y2, qw*z2
	r11 := 1 - (yy + zz)
	r21 := xy + wz
	r31 := xz - wy
	r22 := 1 - (xx + zz)
	r13 := xz + wy
	r23 := yz - wx
	r33 := 1 - (xx + yy)
	var x, y, z float64
	x = math.Asin(-max(-1, min(1, r23)))
	if math.Abs(r23) < 0.9999999 {
		y = math.Atan2(r13, r33)
		z = math.Atan2(r21, r22)
	} else {
		y = math.Atan2(-r31, r11)
	}
	return registry.Vec3{X: unsigned0(x * radToDeg), Y: unsigned0(y * radToDeg), Z: unsigned0(z * radToDeg)}, registry.Vec3{X: sx, Y: sy, Z: sz}
}

// unsigned0 returns x, with -0 made 0 (so that dumps do not say -0).
func unsigned0(x float64) float64 {
	if x == 0 {
		return 0
	}
	return x
}

// inv returns 1/s, or 0 for 0.
func inv(s float64) float64 {
	if s == 0 {
		return 0
	}
	return 1 / s
}

// inverseLinear returns the inverse of the linear part of m, and false if
// it is singular.
func (m *affine) inverseLinear() (linear3, bool) {
	a, b, c := m[0], m[1], m[2]
	d, e, f := m[4], m[5], m[6]
	g, h, i := m[8], m[9], m[10]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return linear3{}, false
	}
	k := 1 / det
	return linear3{
		A * k, -(b*i - c*h) * k, (b*f - c*e) * k,
		B * k, (a*i - c*g) * k, -(a*f - c*d) * k,
		C * k, -(a*h - b*g) * k, (a*e - b*d) * k,
	}, true
}

// mulVec returns l · v.
func (l *linear3) mulVec(v registry.Vec3) registry.Vec3 {
	return registry.Vec3{
		X: l[0]*v.X + l[1]*v.Y + l[2]*v.Z,
		Y: l[3]*v.X + l[4]*v.Y + l[5]*v.Z,
		Z: l[6]*v.X + l[7]*v.Y + l[8]*v.Z,
	}
}
