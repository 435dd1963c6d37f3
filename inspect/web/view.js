// view.js: the 3D view: a three.js scene with the entities' shapes
// (boxes.js, shapes.js), a grid under them, orbit, pan and zoom
// (OrbitControls), and picking: a click selects the entity under the
// pointer by raycasting, and the selected entity gets an outline. The
// gizmo (gizmo.js), when the page gives one, follows the selected entity.
//
// The view draws only when something changed: setting dirty asks for one
// animation frame, and nothing runs between (no loop at 60 Hz over an
// unchanged picture). What moves the picture sets dirty: a new frame of
// transforms, the camera (OrbitControls' change, which goes on while its
// damping settles), the gizmo, the selection, a resize; soon() is for the
// changes that can wait a little for the next frame of transforms.

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/OrbitControls.js';
import { Boxes } from './boxes.js';

const BACKGROUND = new THREE.Color('#14171c');
const DEG = Math.PI / 180;
const SUPERSAMPLE_UNDER = 2000; // entities
const SUPERSAMPLE = 1.5; // pixels per CSS pixel for them
const GRID_CELLS = 20; // across the floor grid
// ms a change that can wait (new references, colours, matches) waits for
// the next frame of transforms to be drawn with it, before it is drawn on
// its own: each drawing costs a software renderer about as much as a new
// frame (a spawning scene fetches new references four times a second).
const SOON = 100;

export class View {
  constructor(container, store) {
    this.container = container;
    this.store = store;
    this.framed = false;
    this.frame = 0; // the animation frame asked for, if any
    this.soonTimer = 0; // a drawing asked for by soon()
    this.dirty = true; // draw at the next animation frame
    this.fresh = false; // new transforms since the last draw
    this.moved = false; // the camera moved: lay the boxes out again
    this.updates = 0; // transform updates drawn, for the rate shown
    this.waiting = []; // resolves of drawn() promises
    this.gizmo = null; // set by main.js

    const renderer = new THREE.WebGLRenderer({ antialias: false });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    renderer.setClearColor(BACKGROUND);
    container.prepend(renderer.domElement);
    this.renderer = renderer;

    this.scene = new THREE.Scene();
    this.scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x30343c, 2.2));
    const sun = new THREE.DirectionalLight(0xffffff, 1.6);
    sun.position.set(0.5, 1, 0.8);
    this.scene.add(sun);

    this.camera = new THREE.PerspectiveCamera(50, 1, 0.05, 5000);
    this.camera.position.set(0, 10, 40);
    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.controls.enableDamping = true;
    this.controls.addEventListener('change', () => { this.dirty = true; this.moved = true; });

    this.grid = new THREE.GridHelper(1, GRID_CELLS, 0x3a4250, 0x252a33);
    this.scene.add(this.grid);

    this.boxes = new Boxes(this.scene, BACKGROUND);

    this.outline = new THREE.LineSegments(
      new THREE.EdgesGeometry(new THREE.BoxGeometry(1.08, 1.08, 1.08)),
      new THREE.LineBasicMaterial({ color: 0x4ea1ff, depthTest: false, transparent: true }));
    this.outline.matrixAutoUpdate = false;
    this.outline.renderOrder = 1;
    this.outline.visible = false;
    this.scene.add(this.outline);

    this.pickHandlers(renderer.domElement);
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();

    const highlight = (now) => {
      this.boxes.setHighlight(store.matches, store.selected);
      if (now) this.moved = this.dirty = true; // the selected entity is always a box
      else this.soon();
    };
    store.on('matches', () => highlight(false)); // refreshed every second
    store.on('select', ({ same }) => highlight(!same)); // same: the entity's path changed
  }

  /** Whether the view is to be drawn again; setting it asks for an animation frame. */
  get dirty() { return this.stale; }

  set dirty(v) {
    this.stale = v;
    if (v && !this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        try {
          this.draw();
        } catch (err) {
          this.dirty = true; // drawn again at the next frame, as an animation loop would
          throw err;
        }
      });
    }
  }

  /** Draw within SOON ms, with the next frame of transforms if one comes first. */
  soon() {
    this.moved = true;
    if (!this.soonTimer) this.soonTimer = setTimeout(() => { this.soonTimer = 0; this.dirty = true; }, SOON);
  }

  /** The number of entities drawn. */
  get count() { return this.boxes.count; }

  /**
   * Take any of refs (the references, in the order of /api/transforms),
   * colors (packed, r g b a per entity) and shapes (ref -> {key, size})
   * at once.
   */
  setEntities(what) {
    this.boxes.setEntities(what);
    this.soon();
    if (what.refs && this.gizmo) this.gizmo.follow();
  }

  /** Take a /api/transforms answer. */
  applyTransforms(frame) {
    // Small scenes are drawn at a higher resolution, which smooths their
    // edges (the renderer has no antialiasing: it costs too much in
    // software, with 10,000 boxes).
    const ratio = Math.min(2, (frame.count > SUPERSAMPLE_UNDER ? 1 : SUPERSAMPLE) * (window.devicePixelRatio || 1));
    if (ratio !== this.renderer.getPixelRatio()) {
      this.renderer.setPixelRatio(ratio);
      this.resize();
    }
    this.boxes.setTransforms(frame);
    if (this.gizmo) this.gizmo.follow();
    this.fresh = this.moved = this.dirty = true;
    if (!this.framed && frame.count > 0) this.frameAll();
  }

  /** The position of an entity as last drawn, or null. */
  positionOf(ref) {
    return this.boxes.position(this.boxes.indexOf.get(ref));
  }

  /** Aim the camera at the whole scene, and lay the grid under it. */
  frameAll() {
    const box = new THREE.Box3();
    const lo = new THREE.Vector3();
    const hi = new THREE.Vector3();
    const m = this.boxes.matrices;
    for (let i = 0; i < this.boxes.count; i++) {
      const o = 16 * i;
      // The unit box turned and scaled by its matrix reaches, along each
      // world axis, half the sum of that row's absolute values.
      const hx = 0.5 * (Math.abs(m[o]) + Math.abs(m[o + 4]) + Math.abs(m[o + 8]));
      const hy = 0.5 * (Math.abs(m[o + 1]) + Math.abs(m[o + 5]) + Math.abs(m[o + 9]));
      const hz = 0.5 * (Math.abs(m[o + 2]) + Math.abs(m[o + 6]) + Math.abs(m[o + 10]));
      lo.set(m[o + 12] - hx, m[o + 13] - hy, m[o + 14] - hz);
      hi.set(m[o + 12] + hx, m[o + 13] + hy, m[o + 14] + hz);
      if ([lo.x, lo.y, lo.z, hi.x, hi.y, hi.z].every(Number.isFinite)) box.expandByPoint(lo).expandByPoint(hi);
    }
    if (box.isEmpty()) return;
    this.framed = true;
    const sphere = box.getBoundingSphere(new THREE.Sphere());
    const r = Math.max(sphere.radius, 3);
    const dist = (1.1 * r) / Math.sin((this.camera.fov * DEG) / 2);
    this.controls.target.copy(sphere.center);
    this.camera.position.copy(sphere.center).add(new THREE.Vector3(0.35, 0.55, 1).normalize().multiplyScalar(dist));
    this.camera.near = dist / 1000;
    this.camera.far = dist * 20;
    this.camera.updateProjectionMatrix();
    // A floor about twice as wide as the scene, in cells of a round size.
    const span = Math.max(box.max.x - box.min.x, box.max.z - box.min.z, 4);
    const cell = Math.pow(10, Math.round(Math.log10((2 * span) / GRID_CELLS)));
    this.grid.scale.setScalar(cell * GRID_CELLS);
    this.grid.position.set(Math.round(sphere.center.x / cell) * cell, box.min.y - 0.01 * r, Math.round(sphere.center.z / cell) * cell);
    this.controls.update();
    this.moved = this.dirty = true;
  }

  resize() {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    if (!w || !h) return;
    this.renderer.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.moved = this.dirty = true;
  }

  draw() {
    // Damping: the camera may still be moving after the pointer let go;
    // its change sets dirty, which asks for the next frame.
    this.controls.update();
    if (!this.dirty) return;
    this.dirty = false;
    if (this.moved) {
      this.moved = false;
      this.boxes.layout(this.camera, this.renderer.domElement.height);
      this.placeOutline();
    }
    this.renderer.render(this.scene, this.camera);
    clearTimeout(this.soonTimer); // what it waited for is drawn
    this.soonTimer = 0;
    if (this.fresh) {
      this.fresh = false;
      this.updates++;
      for (const resolve of this.waiting.splice(0)) resolve();
    }
  }

  /** A promise resolved once the transforms last applied have been drawn. */
  drawn() {
    if (!this.fresh) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Put the outline on the selected entity. */
  placeOutline() {
    const i = this.boxes.indexOf.get(this.store.selected);
    this.outline.visible = i !== undefined && i < this.boxes.count;
    if (this.outline.visible) this.boxes.matrixOf(i, this.outline.matrix);
  }

  /** A click (not a drag) selects the entity under the pointer, or nothing. */
  pickHandlers(canvas) {
    let down = null;
    canvas.addEventListener('pointerdown', (ev) => { down = [ev.clientX, ev.clientY]; });
    canvas.addEventListener('pointerup', (ev) => {
      if (!down || ev.button !== 0) return;
      const moved = Math.hypot(ev.clientX - down[0], ev.clientY - down[1]);
      down = null;
      // A click on the gizmo's handles is the gizmo's.
      if (this.gizmo && this.gizmo.controls.axis !== null) return;
      if (moved <= 4) this.store.select(this.pick(ev.clientX, ev.clientY));
    });
  }

  /** The reference of the entity drawn at a point of the window, or null. */
  pick(x, y) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
    const ray = new THREE.Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const i = this.boxes.pick(ray);
    return i >= 0 ? this.boxes.refs[i] ?? null : null;
  }

  /** The point of the window where an entity is drawn, or null. */
  screenPoint(ref) {
    const p = this.positionOf(ref);
    if (!p) return null;
    const v = new THREE.Vector3(...p).project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return [rect.left + ((v.x + 1) / 2) * rect.width, rect.top + ((1 - v.y) / 2) * rect.height];
  }
}
