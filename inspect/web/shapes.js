// shapes.js: the shapes of the view, from the geometry component
// (components/geometry.go: A-Frame's primitives and their sizes).
//
// Every entity is drawn as one of a few unit shapes, turned and scaled by
// its transform and by its own size: a sphere of radius 2 is the unit
// sphere (diameter 1) scaled by 4. Shapes that no scale can turn into one
// another (a cone with another ratio of its radii, a torus with another
// ratio of its tube, an open cylinder) are shapes of their own, each with
// its key. The view draws one InstancedMesh per shape, so 10,000 spheres
// cost one draw call. The tessellation is the view's own (coarse, for a
// software renderer), not the segments the component asks for.

import * as THREE from 'three';

/** The shape of an entity without a geometry. */
export const BOX = { key: 'box', size: [1, 1, 1] };

/** Parse an attribute string ("primitive: sphere; radius: 2") into {prop: text}. */
export function parseAttr(text) {
  const out = {};
  for (const part of text.split(';')) {
    const at = part.indexOf(':');
    if (at < 0) continue;
    out[part.slice(0, at).trim()] = part.slice(at + 1).trim();
  }
  return out;
}

const num = (v, def) => {
  const n = Number(v);
  return v === undefined || v === '' || !Number.isFinite(n) ? def : n;
};

/** Two decimals: ratios that differ less share a shape. */
const r2 = (x) => Math.round(x * 100) / 100;

/**
 * The shape of a geometry attribute string: {key, size: [x, y, z]}, the
 * scale that turns the key's unit shape into this one.
 */
export function shapeOf(attr) {
  if (!attr) return BOX;
  const g = parseAttr(attr);
  const radius = num(g.radius, 1);
  const height = num(g.height, 1);
  switch (g.primitive) {
    case 'sphere':
      return { key: 'sphere', size: [2 * radius, 2 * radius, 2 * radius] };
    case 'cylinder':
      return { key: g.openEnded === 'true' ? 'cylinder:open' : 'cylinder', size: [2 * radius, height, 2 * radius] };
    case 'cone': {
      const bottom = num(g.radiusBottom, 1);
      const top = num(g.radiusTop, 0.01);
      const r = Math.max(bottom, top, 1e-6);
      return { key: `cone:${r2(top / r)}:${r2(bottom / r)}`, size: [2 * r, height, 2 * r] };
    }
    case 'plane':
      return { key: 'plane', size: [num(g.width, 1), num(g.height, 1), 1] };
    case 'torus': {
      const tube = num(g.radiusTubular, 0.2);
      const arc = num(g.arc, 360);
      const r = Math.max(radius, 1e-6);
      return { key: `torus:${r2(tube / r)}:${Math.round(arc)}`, size: [r, r, r] };
    }
    default:
      return { key: 'box', size: [num(g.width, 1), num(g.height, 1), num(g.depth, 1)] };
  }
}

/**
 * The unit geometry of a shape key, and whether it shows both faces. With
 * low, a coarser one, for shapes a few tens of pixels across, where the
 * difference does not show and the triangles would cost a software
 * renderer most of its time (a sphere: 80 triangles instead of 336).
 */
export function geometryOf(key, low = false) {
  const [kind, a, b] = key.split(':');
  const radial = low ? 8 : 16;
  switch (kind) {
    case 'sphere': return { geometry: low ? new THREE.IcosahedronGeometry(0.5, 1) : new THREE.SphereGeometry(0.5, 16, 12) };
    case 'cylinder': return { geometry: new THREE.CylinderGeometry(0.5, 0.5, 1, radial, 1, a === 'open'), doubleSided: a === 'open' };
    case 'cone': return { geometry: new THREE.CylinderGeometry(0.5 * Number(a), 0.5 * Number(b), 1, radial) };
    case 'plane': return { geometry: new THREE.PlaneGeometry(1, 1), doubleSided: true };
    // Radius 1, the tube in proportion; in the xy plane, as A-Frame's.
    case 'torus': return { geometry: new THREE.TorusGeometry(1, Number(a), low ? 4 : 8, low ? 12 : 24, (Number(b) * Math.PI) / 180), doubleSided: Number(b) < 360 };
    default: return { geometry: new THREE.BoxGeometry(1, 1, 1) };
  }
}
