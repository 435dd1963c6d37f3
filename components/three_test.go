package components_test

import "math"

// An independent transcription of the three.js math A-Frame draws with
// (Euler 'YXZ' → Quaternion.setFromEuler, Matrix4.compose,
// Matrix4.multiplyMatrices, Matrix4.decompose,
// Quaternion.setFromRotationMatrix, Euler.setFromQuaternion), written
// from the three.js sources for the tests: it shares no code with the
// package, and works on 4x4 column-major matrices as three.js does.

type m4 [16]float64 // three.js Matrix4.elements: column-major

type quat struct{ x, y, z, w float64 }

type v3 struct{ x, y, z float64 }

// quatFromEulerYXZ is Quaternion.setFromEuler for order YXZ, angles in
// degrees (A-Frame's rotation component converts degrees to radians).
func quatFromEulerYXZ(deg v3) quat {
	x, y, z := deg.x*math.Pi/180, deg.y*math.Pi/180, deg.z*math.Pi/180
	c1, c2, c3 := math.Cos(x/2), math.Cos(y/2), math.Cos(z/2)
	s1, s2, s3 := math.Sin(x/2), math.Sin(y/2), math.Sin(z/2)
	return quat{
		x: s1*c2*c3 + c1*s2*s3,
		y: c1*s2*c3 - s1*c2*s3,
		z: c1*c2*s3 - s1*s2*c3,
		w: c1*c2*c3 + s1*s2*s3,
	}
}

// compose is Matrix4.compose(position, quaternion, scale).
func compose3(p v3, q quat, s v3) m4 {
	x2, y2, z2 := q.x+q.x, q.y+q.y, q.z+q.z
	xx, xy, xz := q.x*x2, q.x*y2, q.x*z2
	yy, yz, zz := q.y*y2, q.y*z2, q.z*z2
	wx, wy, wz := q.w*x2, q.w*y2, q.w*z2
	return m4{
		(1 - (yy + zz)) * s.x, (xy + wz) * s.x, (xz - wy) * s.x, 0,
		(xy - wz) * s.y, (1 - (xx + zz)) * s.y, (yz + wx) * s.y, 0,
		(xz + wy) * s.z, (yz - wx) * s.z, (1 - (xx + yy)) * s.z, 0,
		p.x, p.y, p.z, 1,
	}
}

// mul is Matrix4.multiplyMatrices(a, b): a × b.
func mul(a, b m4) m4 {
	var out m4
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			var sum float64
			for k := 0; k < 4; k++ {
				sum += a[k*4+r] * b[c*4+k]
			}
			out[c*4+r] = sum
		}
	}
	return out
}

// det is Matrix4.determinant (of the upper 3x3 for an affine matrix).
func det(m m4) float64 {
	return m[0]*(m[5]*m[10]-m[9]*m[6]) - m[4]*(m[1]*m[10]-m[9]*m[2]) + m[8]*(m[1]*m[6]-m[5]*m[2])
}

// decompose is Matrix4.decompose: position, quaternion, scale.
func decompose3(m m4) (v3, quat, v3) {
	sx := math.Sqrt(m[0]*m[0] + m[1]*m[1] + m[2]*m[2])
	sy := math.Sqrt(m[4]*m[4] + m[5]*m[5] + m[6]*m[6])
	sz := math.Sqrt(m[8]*m[8] + m[9]*m[9] + m[10]*m[10])
	if det(m) < 0 {
		sx = -sx
	}
	r := m
	for i := 0; i < 3; i++ {
		r[i] /= sx
		r[4+i] /= sy
		r[8+i] /= sz
	}
	return v3{m[12], m[13], m[14]}, quatFromMatrix(r), v3{sx, sy, sz}
}

// quatFromMatrix is Quaternion.setFromRotationMatrix.
func quatFromMatrix(m m4) quat {
	m11, m12, m13 := m[0], m[4], m[8]
	m21, m22, m23 := m[1], m[5], m[9]
	m31, m32, m33 := m[2], m[6], m[10]
	trace := m11 + m22 + m33
	switch {
	case trace > 0:
		s := 0.5 / math.Sqrt(trace+1.0)
		return quat{w: 0.25 / s, x: (m32 - m23) * s, y: (m13 - m31) * s, z: (m21 - m12) * s}
	case m11 > m22 && m11 > m33:
		s := 2.0 * math.Sqrt(1.0+m11-m22-m33)
		return quat{w: (m32 - m23) / s, x: 0.25 * s, y: (m12 + m21) / s, z: (m13 + m31) / s}
	case m22 > m33:
		s := 2.0 * math.Sqrt(1.0+m22-m11-m33)
		return quat{w: (m13 - m31) / s, x: (m12 + m21) / s, y: 0.25 * s, z: (m23 + m32) / s}
	default:
		s := 2.0 * math.Sqrt(1.0+m33-m11-m22)
		return quat{w: (m21 - m12) / s, x: (m13 + m31) / s, y: (m23 + m32) / s, z: 0.25 * s}
	}
}

// eulerYXZFromQuat is Euler.setFromQuaternion(q, 'YXZ'), in degrees:
// makeRotationFromQuaternion, then setFromRotationMatrix.
func eulerYXZFromQuat(q quat) v3 {
	m := compose3(v3{}, q, v3{1, 1, 1})
	m11, m13 := m[0], m[8]
	m21, m22, m23 := m[1], m[5], m[9]
	m31, m33 := m[2], m[10]
	x := math.Asin(-math.Max(-1, math.Min(1, m23)))
	var y, z float64
	if math.Abs(m23) < 0.9999999 {
		y = math.Atan2(m13, m33)
		z = math.Atan2(m21, m22)
	} else {
		y = math.Atan2(-m31, m11)
	}
	return v3{x * 180 / math.Pi, y * 180 / math.Pi, z * 180 / math.Pi}
}

// localMatrix is the matrix three.js gives an A-Frame entity with these
// position, rotation (degrees) and scale attributes.
func localMatrix(p, r, s v3) m4 { return compose3(p, quatFromEulerYXZ(r), s) }
