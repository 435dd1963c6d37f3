// gizmo.js: translate, rotate and scale gizmos in the view (three.js's
// TransformControls). The gizmo sits on the selected entity, placed where
// the view draws it (its position, rotation and scale as streamed). While
// it is dragged the view draws the entity where the gizmo holds it and
// nothing is sent; when the drag ends, one PUT of the component the mode
// changes (position, rotation or scale) writes the new value: one command
// per drag, which one undo takes back. W, E and R pick the mode (not
// while typing); Escape during a drag puts the entity back.

import * as THREE from 'three';
import { TransformControls } from 'three/addons/TransformControls.js';
import { put, componentURL } from './api.js';
import { typing } from './keys.js';

const RAD = 180 / Math.PI;
const MODES = { translate: 'position', rotate: 'rotation', scale: 'scale' };
const KEYS = { w: 'translate', e: 'rotate', r: 'scale' };

/** A number for an attribute string: 5 decimals at most, no -0. */
const fmt = (v) => String(Math.round(v * 1e5) / 1e5 + 0);

export class Gizmo {
  /**
   * view: the View; store: the Store; buttons: {translate, rotate, scale}
   * elements; message: where an error goes; save(): whether to save.
   */
  constructor(view, store, { buttons, message }, save) {
    this.view = view;
    this.store = store;
    this.buttons = buttons;
    this.message = message;
    this.save = save;
    this.sent = 0; // commands sent (the browser tests read it)
    this.last = null; // the last command: {component, body, status}
    this.index = null; // the entity held while dragging
    this.target = null; // its reference for the API
    this.cancelled = false;

    this.proxy = new THREE.Object3D();
    this.proxy.rotation.order = 'YXZ'; // A-Frame's
    view.scene.add(this.proxy);
    const tc = new TransformControls(view.camera, view.renderer.domElement);
    this.controls = tc;
    view.scene.add(tc.getHelper());
    tc.addEventListener('change', () => { view.dirty = true; });
    tc.addEventListener('objectChange', () => this.moved());
    tc.addEventListener('dragging-changed', (ev) => {
      view.controls.enabled = !ev.value;
      if (ev.value) this.begin(); else this.end();
    });
    for (const [mode, b] of Object.entries(buttons)) b.addEventListener('click', () => this.setMode(mode));
    window.addEventListener('keydown', (ev) => this.key(ev));
    store.on('select', () => this.follow());
    this.setMode('translate');
  }

  setMode(mode) {
    this.controls.setMode(mode);
    for (const [m, b] of Object.entries(this.buttons)) b.classList.toggle('on', m === mode);
    this.view.dirty = true;
  }

  key(ev) {
    if (typing(ev) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === 'Escape' && this.controls.dragging) {
      this.cancelled = true;
      this.controls.reset(); // puts the proxy back; dragging-changed follows
      return;
    }
    const mode = KEYS[ev.key.toLowerCase()];
    if (mode) this.setMode(mode);
  }

  /** Put the gizmo on the selected entity, where it is drawn (not while dragging). */
  follow() {
    if (this.controls.dragging) return;
    const b = this.view.boxes;
    const i = b.indexOf.get(this.store.selected);
    if (i === undefined || i >= b.count || Number.isNaN(b.trs[9 * i])) {
      if (this.controls.object) { this.controls.detach(); this.view.dirty = true; }
      return;
    }
    b.transformOf(i, this.proxy.position, this.proxy.rotation, this.proxy.scale);
    this.proxy.updateMatrix();
    if (this.controls.object !== this.proxy) this.controls.attach(this.proxy);
  }

  begin() {
    this.index = this.view.boxes.indexOf.get(this.store.selected) ?? null;
    this.target = this.store.key || this.store.selected;
    this.cancelled = false;
  }

  /** The proxy moved under the pointer: draw the entity there. */
  moved() {
    if (this.index === null) return;
    this.proxy.updateMatrix();
    this.view.boxes.hold(this.index, this.proxy.matrix);
    this.view.moved = this.view.dirty = true;
  }

  /** The drag ended: send its one command, then let the stream place the entity again. */
  async end() {
    const index = this.index;
    const target = this.target;
    this.index = null;
    if (index === null || !target) return;
    const component = MODES[this.controls.getMode()];
    const p = this.proxy;
    const body = {
      position: () => [p.position.x, p.position.y, p.position.z],
      rotation: () => [p.rotation.x * RAD, p.rotation.y * RAD, p.rotation.z * RAD],
      scale: () => [p.scale.x, p.scale.y, p.scale.z],
    }[component]().map(fmt).join(' ');
    const b = this.view.boxes;
    const before = [...b.trs.subarray(9 * index, 9 * index + 9)];
    const was = { position: before.slice(0, 3), rotation: before.slice(3, 6), scale: before.slice(6, 9) }[component];
    if (this.cancelled || was.map((v) => fmt(Number.isNaN(v) ? (component === 'scale' ? 1 : 0) : v)).join(' ') === body) {
      this.release();
      return;
    }
    this.sent++;
    this.last = { component, body, status: 0 };
    try {
      await put(`${componentURL(target, component)}${this.save() ? '?save=1' : ''}`, body);
      this.last.status = 200;
      this.message.textContent = '';
    } catch (err) {
      this.last.status = err.status || -1;
      this.message.textContent = `${component}: ${err.message}`;
    }
    this.release();
  }

  /** Draw the entity where the stream says again. */
  release() {
    this.view.boxes.hold(null);
    this.view.moved = this.view.dirty = true;
    this.follow();
  }
}
