// boxes.js: draws the entities as boxes. Every entity with a position is
// a unit box placed by its position, rotation (degrees) and scale, in its
// colour: lit, dimmed or white by the selector's matches and the
// selection.
//
// Boxes are one InstancedMesh, one draw call however many. A box that
// covers only a few pixels on screen is drawn as a point of one
// THREE.Points instead: it looks the same at that size, and a software
// renderer (headless Chromium's SwiftShader) draws a point far faster
// than a box's twelve triangles, which is what keeps the 10,000 cubes
// of cubes.yaml above 20 frames per second. Which entities are points is
// decided again each time the boxes move or the camera does.

import * as THREE from 'three';

const DEFAULT_COLOR = new THREE.Color('#7d9bbf');
const MATCH_COLOR = new THREE.Color('#ffb224');
const SELECTED_COLOR = new THREE.Color('#ffffff');
const DIM = 0.25; // what is left of an unmatched box's colour while a selector is on
const POINT_PX = 5; // a box smaller than this on screen (pixels) is drawn as a point
const POINT_SHADE = 0.8; // points are unlit: darken them to sit among lit boxes
// A-Frame's order for rotations given in degrees: yaw, then pitch, then roll.
const EULER_ORDER = 'YXZ';
const DEG = Math.PI / 180;

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
    this.boxOf = new Int32Array(0); // box slot -> entity
    this.pointOf = new Int32Array(0); // point slot -> entity
    this.matches = null;
    this.selected = null;

    this.geometry = new THREE.BoxGeometry(1, 1, 1);
    this.material = new THREE.MeshLambertMaterial({ color: 0xffffff });
    this.mesh = null;
    this.capacity = 0;
    this.pointsGeometry = new THREE.BufferGeometry();
    this.points = new THREE.Points(this.pointsGeometry, new THREE.PointsMaterial({ vertexColors: true, sizeAttenuation: true }));
    this.points.frustumCulled = false;
    scene.add(this.points);
  }

  /** Make room for n entities. */
  ensure(n) {
    if (n > this.capacity) {
      if (this.mesh) { this.scene.remove(this.mesh); this.mesh.dispose(); }
      const cap = Math.max(n, 2 * this.capacity, 64);
      this.capacity = cap;
      this.mesh = new THREE.InstancedMesh(this.geometry, this.material, cap);
      this.mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      this.mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
      this.mesh.frustumCulled = false;
      this.scene.add(this.mesh);
      const pos = new THREE.BufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
      const col = new THREE.BufferAttribute(new Float32Array(3 * cap), 3).setUsage(THREE.DynamicDrawUsage);
      this.pointsGeometry.setAttribute('position', pos);
      this.pointsGeometry.setAttribute('color', col);
      this.boxOf = new Int32Array(cap).fill(-1);
      this.pointOf = new Int32Array(cap).fill(-1);
      this.repainted = true;
    }
    if (n !== this.count) {
      this.count = n;
      this.matrices = new Float32Array(16 * n);
      this.sizes = new Float32Array(n);
      this.rgb = new Float32Array(3 * n);
      this.paint();
    }
  }

  setRefs(refs) {
    this.refs = refs;
    this.indexOf = new Map(refs.map((r, i) => [r, i]));
    this.paint();
  }

  setColors(bytes) {
    this.colors = bytes;
    this.paint();
  }

  setHighlight(matches, selected) {
    this.matches = matches;
    this.selected = selected;
    this.paint();
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
    const m = new THREE.Matrix4();
    const p = new THREE.Vector3();
    const q = new THREE.Quaternion();
    const s = new THREE.Vector3();
    const e = new THREE.Euler(0, 0, 0, EULER_ORDER);
    for (let i = 0; i < n; i++) {
      const b = i * stride;
      p.set(f[b + at.position], f[b + at.position + 1], f[b + at.position + 2]);
      if (at.rotation >= 0 && !Number.isNaN(f[b + at.rotation])) {
        e.set(f[b + at.rotation] * DEG, f[b + at.rotation + 1] * DEG, f[b + at.rotation + 2] * DEG, EULER_ORDER);
        q.setFromEuler(e);
      } else {
        q.identity();
      }
      if (at.scale >= 0 && !Number.isNaN(f[b + at.scale])) s.set(f[b + at.scale], f[b + at.scale + 1], f[b + at.scale + 2]);
      else s.set(1, 1, 1);
      if (Number.isNaN(p.x)) s.set(0, 0, 0); // no position: not drawn
      m.compose(p, q, s);
      m.toArray(this.matrices, 16 * i);
      this.sizes[i] = Math.max(Math.abs(s.x), Math.abs(s.y), Math.abs(s.z));
    }
  }

  /** Work out each entity's colour as drawn. */
  paint() {
    const c = new THREE.Color();
    for (let i = 0; i < this.count; i++) {
      const ref = this.refs[i];
      if (4 * i + 3 < this.colors.length && this.colors[4 * i + 3] > 0) {
        c.setRGB(this.colors[4 * i] / 255, this.colors[4 * i + 1] / 255, this.colors[4 * i + 2] / 255, THREE.SRGBColorSpace);
      } else {
        c.copy(DEFAULT_COLOR);
      }
      if (this.matches) {
        if (this.matches.has(ref)) c.copy(MATCH_COLOR);
        else c.lerp(this.background, 1 - DIM);
      }
      if (ref !== undefined && ref === this.selected) c.copy(SELECTED_COLOR);
      c.toArray(this.rgb, 3 * i);
    }
    this.repainted = true;
  }

  /**
   * Split the entities between boxes and points for this camera and a
   * canvas this many pixels high, and fill the buffers.
   */
  layout(camera, heightPx) {
    if (!this.mesh) return;
    // Pixels per world unit at distance 1.
    const focal = heightPx / (2 * Math.tan((camera.fov * DEG) / 2));
    const cam = camera.position;
    const mat = this.mesh.instanceMatrix.array;
    const boxRGB = this.mesh.instanceColor.array;
    const pos = this.pointsGeometry.attributes.position.array;
    const pointRGB = this.pointsGeometry.attributes.color.array;
    let nb = 0;
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
      if ((size * focal) / d >= POINT_PX || this.refs[i] === this.selected) {
        mat.set(this.matrices.subarray(o, o + 16), 16 * nb);
        boxRGB[3 * nb] = this.rgb[3 * i]; boxRGB[3 * nb + 1] = this.rgb[3 * i + 1]; boxRGB[3 * nb + 2] = this.rgb[3 * i + 2];
        if (this.boxOf[nb] !== i) { this.boxOf[nb] = i; recolor = true; }
        nb++;
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
    if (nb !== this.boxCount || np !== this.pointCount) recolor = true;
    this.repainted = false;
    this.mesh.count = nb;
    // Upload only the slots in use, not the whole capacity.
    upload(this.mesh.instanceMatrix, 16 * nb, true);
    upload(this.mesh.instanceColor, 3 * nb, recolor);
    this.mesh.boundingSphere = null; // recomputed when picking needs it
    this.pointsGeometry.setDrawRange(0, np);
    this.pointsGeometry.boundingSphere = null;
    upload(this.pointsGeometry.attributes.position, 3 * np, true);
    upload(this.pointsGeometry.attributes.color, 3 * np, recolor);
    // Points are as big as the boxes they stand for, on average.
    this.points.material.size = np ? pointSize / np : 1;
    this.boxCount = nb;
    this.pointCount = np;
  }

  /** The entity index hit by a raycaster, or -1. */
  pick(raycaster) {
    if (!this.mesh) return -1;
    if (!this.mesh.boundingSphere) this.mesh.computeBoundingSphere();
    raycaster.params.Points.threshold = this.points.material.size;
    const hits = [
      ...raycaster.intersectObject(this.mesh, false).map((h) => [h.distance, this.boxOf[h.instanceId]]),
      ...raycaster.intersectObject(this.points, false).map((h) => [h.distance, this.pointOf[h.index]]),
    ];
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
