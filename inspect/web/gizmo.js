// gizmo.js: translate, rotate and scale gizmos in the view (three.js's
// TransformControls). The gizmo sits on the selected entity, placed where
// the view draws it (its position, rotation and scale as streamed). While
// it is dragged the view draws the entity where the gizmo holds it and
// nothing is sent; when the drag ends, one PUT of the axes the drag
// changed of the component the mode changes (position, rotation or
// scale: position.x, scale.xyz) writes the new value: one command per
// drag, which one undo takes back. The axes the drag left alone are not
// sent, so that a save writes into the file only what the drag changed
// (not the y an animation gave the entity). W, E and R pick the mode
// (not while typing); Escape during a drag puts the entity back.

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
   * elements; message: where an error goes; save: the SaveSetting.
   */
  constructor(view, store, { buttons, message }, save) {
    this.view = view;
    this.store = store;
    this.buttons = buttons;
    this.message = message;
    this.save = save;
    this.sent = 0; // commands sent (the browser tests read it)
    this.last = null; // the last command: {component, axes, body, value, status}
    this.start = null; // the proxy's values when the drag began (values())
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
    this.start = this.values();
  }

  /** The proxy's position, rotation (degrees) and scale, as attribute numbers. */
  values() {
    const p = this.proxy;
    return {
      position: [p.position.x, p.position.y, p.position.z].map(fmt),
      rotation: [p.rotation.x * RAD, p.rotation.y * RAD, p.rotation.z * RAD].map(fmt),
      scale: [p.scale.x, p.scale.y, p.scale.z].map(fmt),
    };
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
    const now = this.values()[component];
    const was = this.start[component];
    const moved = [0, 1, 2].filter((k) => now[k] !== was[k]);
    if (this.cancelled || !moved.length) {
      this.release();
      return;
    }
    const axes = moved.map((k) => 'xyz'[k]).join('');
    const body = moved.map((k) => now[k]).join(' ');
    this.sent++;
    this.last = { component, axes, body, value: now.join(' '), status: 0 };
    try {
      await put(`${componentURL(target, `${component}.${axes}`)}${this.save.query()}`, body);
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
