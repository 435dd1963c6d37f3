// boxes.js: draws the entities. Every entity with a position is a unit
// shape (shapes.js: a box, or its geometry's primitive) placed by its
// position, rotation (degrees) and scale and sized by its geometry, in
// its colour: lit, dimmed or white by the selector's matches and the
// selection.
//
// Each shape is one InstancedMesh, one draw call however many entities
// have it. A shape that
// covers only a few pixels on screen is drawn as a point of one
// THREE.Points instead: it looks the same at that size, and a software
// renderer (headless Chromium's SwiftShader) draws a point far faster
// than a box's twelve triangles, which is what keeps the 10,000 cubes
// of cubes.yaml above 20 frames per second. Which entities are points is
// decided again each time the boxes move or the camera does.

import * as THREE from 'three';
import { BOX, geometryOf } from './shapes.js';

const DEFAULT_COLOR = new THREE.Color('#7d9bbf');
const MATCH_COLOR = new THREE.Color('#ffb224');
const SELECTED_COLOR = new THREE.Color('#ffffff');
const DIM = 0.25; // what is left of an unmatched box's colour while a selector is on
const POINT_PX = 5; // a box smaller than this on screen (pixels) is drawn as a point
const DETAIL_PX = 40; // a shape smaller than this is drawn with its coarse geometry
const POINT_SHADE = 0.8; // points are unlit: darken them to sit among lit boxes
// A-Frame's order for rotations given in degrees: yaw, then pitch, then roll.
const EULER_ORDER = 'YXZ';
const DEG = Math.PI / 180;
// Linear values of the 256 sRGB byte values (THREE.Color's conversion),
// so that painting 10,000 entities needs no pow() each.
const LINEAR = Float32Array.from({ length: 256 }, (_, v) => new THREE.Color().setRGB(v / 255, 0, 0, THREE.SRGBColorSpace).r);

export class Boxes {
  constructor(scene, background) {
    this.scene = scene;
    this.background = background;
    this.count = 0;
    this.refs = []; // entity references, in the order of /api/transforms
    this.indexOf = new Map(); // ref -> entity index
    this.matrices = new Float32Array(0); // 16 per entity
    this.sizes = new Float32Array(0); // largest scale per entity
    this.colors = new Uint8Array(0); // r g b a per entity (a = 0: none)
    this.rgb = new Float32Array(0); // colour drawn, 3 per entity
    this.pointOf = new Int32Array(0); // point slot -> entity
    this.matches = null;
    this.selected = null;
    this.shapeByRef = new Map(); // ref -> {key, size} for entities with a geometry
    this.shapeOf = new Uint16Array(0); // entity -> index in this.meshes
    this.local = new Float32Array(0); // the size of each entity's shape, 3 per entity
    this.meshes = []; // per shape: {key, mesh, slotOf: Int32Array, capacity, count}
    this.meshIndex = new Map(); // shape key -> index in this.meshes
    this.trs = new Float32Array(0); // position, rotation (degrees), scale as streamed: 9 per entity
    this.override = null; // {index, matrix}: an entity drawn where the gizmo holds it

    this.material = new THREE.MeshLambertMaterial({ color: 0xffffff });
    this.doubleSided = new THREE.MeshLambertMaterial({ color: 0xffffff, side: THREE.DoubleSide });
    this.capacity = 0; // entities the points' buffers hold
    this.room = 0; // entities the per-entity arrays hold
    this.meshFor(BOX.key);
    this.pointsGeometry = new THREE.BufferGeometry();
    this.points = new THREE.Points(this.pointsGeometry, new THREE.PointsMaterial({ vertexColors: true, sizeAttenuation: true }));
    this.points.frustumCulled = false;
    scene.add(this.points);
  }

  /** Make room for n entities. */
  ensure(n) {
    if (n > this.capacity) {
      const cap = Math.max(n, 2 * this.capacity, 64);
      this.capacity = cap;
      const pos = new THREE.BufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
      const col = new THREE.BufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
      this.pointsGeometry.setAttribute('position', pos);
      this.pointsGeometry.setAttribute('color', col);
      this.pointOf = new Int32Array(cap).fill(-1);
      this.repainted = true;
    }
    if (n > this.room) {
      // The arrays grow and keep what they hold: a spawning scene's count
      // changes in nearly every frame, and each entity's shape and colour
      // stay where they were until the references are fetched again.
      const room = Math.max(n, Math.ceil(1.25 * this.room), 64);
      this.room = room;
      this.matrices = grown(this.matrices, 16 * room);
      this.trs = grown(this.trs, 9 * room);
      this.sizes = grown(this.sizes, room);
      this.rgb = grown(this.rgb, 3 * room);
      this.shapeOf = grown(this.shapeOf, room);
      this.local = grown(this.local, 3 * room);
    }
    if (n !== this.count) {
      const was = this.count;
      this.count = n;
      if (n > was) { this.reshape(was, n); this.paint(was, n); } // the entities new at the end
    }
  }

  /**
   * The mesh of a shape key, made on first use; its index in this.meshes.
   * Each shape has two: its own, and after it its coarse one (low, the
   * same for a box), for shapes small on screen.
   */
  meshFor(key) {
    let at = this.meshIndex.get(key);
    if (at === undefined) {
      at = this.meshes.length;
      for (const low of [false, true]) {
        const { geometry, doubleSided } = key === BOX.key && low ? { geometry: this.meshes[at].geometry } : geometryOf(key, low);
        this.meshes.push({ key: low ? `${key}~low` : key, geometry, material: doubleSided ? this.doubleSided : this.material, mesh: null, slotOf: new Int32Array(0), capacity: 0, count: 0 });
      }
      this.meshIndex.set(key, at);
    }
    return at;
  }

  /** Make room for n instances in shape m's mesh. */
  grow(m, n) {
    if (n <= m.capacity) return;
    if (m.mesh) { this.scene.remove(m.mesh); m.mesh.dispose(); }
    const cap = Math.max(n, 2 * m.capacity, 64);
    m.capacity = cap;
    m.mesh = new THREE.InstancedMesh(m.geometry, m.material, cap);
    m.mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    m.mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
    m.mesh.frustumCulled = false;
    m.mesh.count = 0;
    m.slotOf = new Int32Array(cap).fill(-1);
    this.scene.add(m.mesh);
  }

  /**
   * Take any of the references, the packed colours and the shapes at
   * once, each entity's shape and colour worked out once for them all.
   */
  setEntities({ refs, colors, shapes }) {
    if (refs) {
      this.refs = refs;
      const at = new Map();
      for (let i = 0; i < refs.length; i++) at.set(refs[i], i);
      this.indexOf = at;
    }
    if (colors) this.colors = colors;
    if (shapes) this.shapeByRef = shapes;
    if (refs || shapes) { this.reshape(0, this.count); this.compose(); }
    this.paint(0, this.count);
  }

  /** Work out the shape and size of entities from to to (not included) from their references. */
  reshape(from, to) {
    for (let i = from; i < to; i++) {
      const s = this.shapeByRef.get(this.refs[i]) || BOX;
      this.shapeOf[i] = this.meshFor(s.key);
      this.local[3 * i] = s.size[0]; this.local[3 * i + 1] = s.size[1]; this.local[3 * i + 2] = s.size[2];
    }
  }

  setHighlight(matches, selected) {
    const was = this.selected;
    const same = matches === this.matches;
    this.matches = matches;
    this.selected = selected;
    if (!same) { this.paint(0, this.count); return; }
    // The selection alone changed: the entities it left and reached.
    for (const ref of [was, selected]) {
      const i = this.indexOf.get(ref);
      if (i !== undefined && i < this.count) this.paint(i, i + 1);
    }
  }

  /**
   * Take a /api/transforms answer whose layout names position, and maybe
   * rotation and scale: vectors of 3 floats, NaN where an entity lacks
   * the component.
   */
  setTransforms(frame) {
    const { count: n, stride } = frame;
    this.ensure(n);
    const f = new Float32Array(frame.buffer, 16, n * stride);
    const at = offsets(frame.layout);
    const t = this.trs;
    for (let i = 0; i < n; i++) {
      const b = i * stride;
      const o = 9 * i;
      t[o] = f[b + at.position]; t[o + 1] = f[b + at.position + 1]; t[o + 2] = f[b + at.position + 2];
      if (at.rotation >= 0) {
        t[o + 3] = f[b + at.rotation]; t[o + 4] = f[b + at.rotation + 1]; t[o + 5] = f[b + at.rotation + 2];
      } else {
        t[o + 3] = t[o + 4] = t[o + 5] = NaN;
      }
      if (at.scale >= 0) {
        t[o + 6] = f[b + at.scale]; t[o + 7] = f[b + at.scale + 1]; t[o + 8] = f[b + at.scale + 2];
      } else {
        t[o + 6] = t[o + 7] = t[o + 8] = NaN;
      }
    }
    this.compose();
  }

  /** Entity i's position, rotation (radians, A-Frame's order) and scale as streamed, into p, e and s. */
  transformOf(i, p, e, s) {
    const t = this.trs;
    const o = 9 * i;
    p.set(t[o], t[o + 1], t[o + 2]);
    if (Number.isNaN(t[o + 3])) e.set(0, 0, 0, EULER_ORDER);
    else e.set(t[o + 3] * DEG, t[o + 4] * DEG, t[o + 5] * DEG, EULER_ORDER);
    if (Number.isNaN(t[o + 6])) s.set(1, 1, 1);
    else s.set(t[o + 6], t[o + 7], t[o + 8]);
  }

  /**
   * Make each entity's matrix: its transform, then its shape's size (what
   * THREE.Matrix4.compose makes of them, written out: 10,000 entities
   * composed through Euler and Quaternion objects cost the page several
   * milliseconds a frame).
   */
  compose() {
    const n = this.count;
    const t = this.trs;
    const l = this.local;
    const m = this.matrices;
    for (let i = 0; i < n; i++) {
      const o = 9 * i;
      const k = 16 * i;
      let sx = 1, sy = 1, sz = 1;
      if (!Number.isNaN(t[o + 6])) { sx = t[o + 6]; sy = t[o + 7]; sz = t[o + 8]; }
      if (Number.isNaN(t[o])) sx = sy = sz = 0; // no position: not drawn
      sx *= l[3 * i]; sy *= l[3 * i + 1]; sz *= l[3 * i + 2];
      if (Number.isNaN(t[o + 3])) {
        m[k] = sx; m[k + 1] = 0; m[k + 2] = 0;
        m[k + 4] = 0; m[k + 5] = sy; m[k + 6] = 0;
        m[k + 8] = 0; m[k + 9] = 0; m[k + 10] = sz;
      } else {
        // Rotation by Euler angles in A-Frame's order (YXZ), as
        // THREE.Matrix4.makeRotationFromEuler makes it, columns scaled.
        const x = t[o + 3] * DEG, y = t[o + 4] * DEG, z = t[o + 5] * DEG;
        const a = Math.cos(x), b = Math.sin(x), c = Math.cos(y), d = Math.sin(y), e = Math.cos(z), f = Math.sin(z);
        const ce = c * e, cf = c * f, de = d * e, df = d * f;
        m[k] = (ce + df * b) * sx; m[k + 1] = a * f * sx; m[k + 2] = (cf * b - de) * sx;
        m[k + 4] = (de * b - cf) * sy; m[k + 5] = a * e * sy; m[k + 6] = (df + ce * b) * sy;
        m[k + 8] = a * d * sz; m[k + 9] = -b * sz; m[k + 10] = a * c * sz;
      }
      m[k + 3] = 0; m[k + 7] = 0; m[k + 11] = 0;
      m[k + 12] = t[o]; m[k + 13] = t[o + 1]; m[k + 14] = t[o + 2]; m[k + 15] = 1;
      this.sizes[i] = Math.max(Math.abs(sx), Math.abs(sy), Math.abs(sz));
    }
    this.applyOverride();
  }

  /**
   * Draw entity index where matrix (an Object3D's, without the shape's
   * size) puts it, whatever the stream says, until cleared with null:
   * the gizmo holds the entity while it is dragged.
   */
  hold(index, matrix) {
    this.override = index === null ? null : { index, matrix };
    if (index === null) this.compose(); else this.applyOverride();
  }

  applyOverride() {
    const o = this.override;
    if (!o || o.index >= this.count) return;
    const i = o.index;
    const m = o.matrix.clone().scale(new THREE.Vector3(this.local[3 * i], this.local[3 * i + 1], this.local[3 * i + 2]));
    m.toArray(this.matrices, 16 * i);
    const e = m.elements;
    this.sizes[i] = Math.max(Math.hypot(e[0], e[1], e[2]), Math.hypot(e[4], e[5], e[6]), Math.hypot(e[8], e[9], e[10]));
  }

  /** Work out the colour drawn of entities from to to (not included). */
  paint(from, to) {
    const cols = this.colors;
    const rgb = this.rgb;
    const bg = this.background;
    const fade = 1 - DIM;
    for (let i = from; i < to; i++) {
      const ref = this.refs[i];
      let r = DEFAULT_COLOR.r, g = DEFAULT_COLOR.g, b = DEFAULT_COLOR.b;
      if (4 * i + 3 < cols.length && cols[4 * i + 3] > 0) {
        r = LINEAR[cols[4 * i]]; g = LINEAR[cols[4 * i + 1]]; b = LINEAR[cols[4 * i + 2]];
      }
      if (this.matches) {
        if (this.matches.has(ref)) ({ r, g, b } = MATCH_COLOR);
        else { r += (bg.r - r) * fade; g += (bg.g - g) * fade; b += (bg.b - b) * fade; }
      }
      if (ref !== undefined && ref === this.selected) ({ r, g, b } = SELECTED_COLOR);
      rgb[3 * i] = r; rgb[3 * i + 1] = g; rgb[3 * i + 2] = b;
    }
    this.repainted = true;
  }

  /**
   * Split the entities between boxes and points for this camera and a
   * canvas this many pixels high, and fill the buffers.
   */
  layout(camera, heightPx) {
    if (!this.capacity) return; // no transforms yet
    // Pixels per world unit at distance 1.
    const focal = heightPx / (2 * Math.tan((camera.fov * DEG) / 2));
    const cam = camera.position;
    // Shapes first counted, so that each mesh has room.
    const need = new Int32Array(this.meshes.length);
    for (let i = 0; i < this.count; i++) { need[this.shapeOf[i]]++; need[this.shapeOf[i] + 1]++; }
    this.meshes.forEach((m, k) => { this.grow(m, need[k]); m.count = 0; m.recolor = this.repainted; });
    const pos = this.pointsGeometry.attributes.position.array;
    const pointRGB = this.pointsGeometry.attributes.color.array;
    let np = 0;
    let pointSize = 0;
    // Colours are uploaded again only when they or the slots changed.
    let recolor = this.repainted;
    for (let i = 0; i < this.count; i++) {
      const o = 16 * i;
      const x = this.matrices[o + 12], y = this.matrices[o + 13], z = this.matrices[o + 14];
      const d = Math.hypot(x - cam.x, y - cam.y, z - cam.z);
      const size = this.sizes[i];
      if (size === 0) continue;
      const px = (size * focal) / d;
      if (px >= POINT_PX || this.refs[i] === this.selected) {
        const m = this.meshes[this.shapeOf[i] + (px < DETAIL_PX ? 1 : 0)];
        const nb = m.count++;
        m.mesh.instanceMatrix.array.set(this.matrices.subarray(o, o + 16), 16 * nb);
        const rgb = m.mesh.instanceColor.array;
        rgb[3 * nb] = this.rgb[3 * i]; rgb[3 * nb + 1] = this.rgb[3 * i + 1]; rgb[3 * nb + 2] = this.rgb[3 * i + 2];
        if (m.slotOf[nb] !== i) { m.slotOf[nb] = i; m.recolor = true; }
      } else {
        pos[3 * np] = x; pos[3 * np + 1] = y; pos[3 * np + 2] = z;
        pointRGB[3 * np] = POINT_SHADE * this.rgb[3 * i];
        pointRGB[3 * np + 1] = POINT_SHADE * this.rgb[3 * i + 1];
        pointRGB[3 * np + 2] = POINT_SHADE * this.rgb[3 * i + 2];
        pointSize += size;
        if (this.pointOf[np] !== i) { this.pointOf[np] = i; recolor = true; }
        np++;
      }
    }
    let nb = 0;
    for (const m of this.meshes) {
      if (!m.mesh) continue;
      if (m.count !== m.mesh.count) m.recolor = true;
      m.mesh.count = m.count;
      // Upload only the slots in use, not the whole capacity.
      upload(m.mesh.instanceMatrix, 16 * m.count, true);
      upload(m.mesh.instanceColor, 3 * m.count, m.recolor);
      m.mesh.boundingSphere = null; // recomputed when picking needs it
      nb += m.count;
    }
    if (np !== this.pointCount) recolor = true;
    this.repainted = false;
    this.pointsGeometry.setDrawRange(0, np);
    this.pointsGeometry.boundingSphere = null;
    upload(this.pointsGeometry.attributes.position, 3 * np, true);
    upload(this.pointsGeometry.attributes.color, 3 * np, recolor);
    // Points are as big as the shapes they stand for, on average.
    this.points.material.size = np ? pointSize / np : 1;
    this.boxCount = nb;
    this.pointCount = np;
  }

  /** How many entities each shape draws, by key, coarse or not (for the tests). */
  shapeCounts() {
    const out = {};
    for (const m of this.meshes) {
      const key = m.key.replace(/~low$/, '');
      if (m.mesh && m.mesh.count) out[key] = (out[key] || 0) + m.mesh.count;
    }
    return out;
  }

  /** The entity index hit by a raycaster, or -1. */
  pick(raycaster) {
    raycaster.params.Points.threshold = this.points.material.size;
    const hits = [];
    for (const m of this.meshes) {
      if (!m.mesh || !m.mesh.count) continue;
      if (!m.mesh.boundingSphere) m.mesh.computeBoundingSphere();
      for (const h of raycaster.intersectObject(m.mesh, false)) hits.push([h.distance, m.slotOf[h.instanceId]]);
    }
    for (const h of raycaster.intersectObject(this.points, false)) hits.push([h.distance, this.pointOf[h.index]]);
    hits.sort((a, b) => a[0] - b[0]);
    return hits.length ? hits[0][1] : -1;
  }

  /** The position of entity i (an array of 3), or null. */
  position(i) {
    if (i === undefined || i < 0 || i >= this.count) return null;
    return [this.matrices[16 * i + 12], this.matrices[16 * i + 13], this.matrices[16 * i + 14]];
  }

  /** Entity i's matrix into m. */
  matrixOf(i, m) {
    return m.fromArray(this.matrices, 16 * i);
  }
}

/** A typed array of length n (at least a's) holding a's values first. */
function grown(a, n) {
  const b = new a.constructor(n);
  b.set(a);
  return b;
}

/** Mark the first n numbers of a buffer attribute for upload, if ok. */
function upload(attr, n, ok) {
  if (!ok || n === 0) return;
  attr.clearUpdateRanges();
  attr.addUpdateRange(0, n);
  attr.needsUpdate = true;
}

/** Where position, rotation and scale start in a layout ("position:3,scale:3"); -1 if absent. */
function offsets(layout) {
  const at = { position: -1, rotation: -1, scale: -1 };
  let off = 0;
  for (const part of layout.split(',')) {
    const [name, n] = part.split(':');
    if (name in at) at[name] = off;
    off += Number(n);
  }
  if (at.position < 0) at.position = 0;
  return at;
}
