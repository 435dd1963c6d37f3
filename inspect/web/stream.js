// stream.js: keeps the view's boxes where the entities are. It reads
// GET /api/transforms/stream: one response on which the server sends
// packed float32 frames (4 bytes a number, no JSON per entity) up to FPS
// times a second. The reader keeps only the newest frame; the view draws
// it when it can, so a slow view skips frames instead of falling behind.
//
// The page asks for as many frames as it draws: when it draws fewer than
// it is sent (its machine is short of time: two pages, a simulation run
// flat out on the same cores), it asks for about what it drew, and for
// more again once it draws them all. A frame read and dropped costs the
// browser (and the server) nearly what a frame drawn costs, without
// showing anything.
//
// The World's structural version in each frame's header says when
// entities came or went: then the references (GET /api/query) and the
// colours (GET /api/colors) are fetched again, and the store is told.
// Columns no entity has (rotation in the cube scene) are left out of the
// stream; whether some entity has one now is asked at most once a second
// while the structure changes (a spawning scene changes it in every
// frame), and at once after an edit, a reload or an undo.
//
// A page on the simulation's own machine yields to a simulation that
// takes all the time it gets (GET /api/stats' load near 1: run flat out,
// or ticks as long as the time step): whatever the page's browser
// spends, drawing or fetching, is taken from the simulation, whose
// figures then measure the page as much as the scene. While it yields,
// the page asks for at most YIELD_FPS frames a second and fetches the
// references and colours at most once a second, and says so beside the
// rate. ?yield=0 in the page's address turns this off.

import { get, getPacked } from './api.js';
import { shapeOf } from './shapes.js';

const SELECTOR = '[position]';
const ALL = ['position', 'rotation', 'scale'];
const FPS = 30; // frames a second asked of the server while running, at most
const MIN_FPS = 10; // the fewest asked while running
const PAUSED_FPS = 4; // while paused, only edits move anything
const SHORT = 2; // frames a second drawn fewer than asked that count as falling behind
const SHAPES_EVERY = 1000; // ms: the shapes are fetched again at most this often
const COLUMNS_EVERY = 1000; // ms: columns left out are looked for at most this often, but after an edit
// ms between the starts of two fetches of the references and colours: a
// scene that spawns or expires entities every tick changes its structure
// in every frame, and fetching 10,000 references back to back kept the
// page's main thread and the simulation's request share busy with them.
const SYNC_EVERY = 250;
const YIELD_FPS = 5; // frames a second asked at most while yielding
const YIELD_SYNC_EVERY = 1000; // ms: SYNC_EVERY while yielding
// The load at which the page starts yielding, and the one under which it
// stops: apart, so that a load near one of them does not flip it.
const YIELD_ABOVE = 0.75;
const YIELD_BELOW = 0.5;
// Whether the page may yield: it runs where the simulation runs (the
// page's address is a loopback one) and its address does not say ?yield=0.
const MAY_YIELD = ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname)
  && new URLSearchParams(location.search).get('yield') !== '0';

export class Stream {
  constructor(view, store, info) {
    this.view = view;
    this.store = store;
    this.info = info; // element showing the rate and size
    this.cols = ALL;
    this.fps = FPS;
    this.running = true; // the scene is not paused
    this.behind = 0; // seconds in a row the view drew fewer frames than it asked for
    this.kept = 0; // seconds in a row it drew them all
    this.version = -1; // World version of the references in the view
    this.syncing = null;
    this.latest = null; // newest frame not yet applied
    this.wake = null; // resolves the wait for a frame
    this.bytes = 0; // of the last frame
    this.lastUpdates = 0;
    this.rate = 0;
    this.controller = null;
    this.shapesAt = -Infinity; // when the shapes were last fetched
    this.columnsAt = -Infinity; // when the columns left out were last looked for
    this.edited = false; // an edit since: look for the columns left out at the next sync
    this.shapeMap = new Map();
    this.syncAt = -Infinity; // when the last fetch of the references began
    this.syncTimer = null; // a resync waiting for SYNC_EVERY to pass
    this.yielding = false; // yielding to a loaded simulation on this machine
    setInterval(() => { this.measure(); this.adapt(); }, 1000);
    document.addEventListener('visibilitychange', () => { if (!document.hidden && this.running) this.ask(this.top); });
  }

  /** Apply frames as they come, one per drawing of the view, for ever. */
  async run() {
    this.open();
    for (;;) {
      const frame = await this.next();
      if (this.cols === ALL) {
        const cols = present(frame);
        if (cols.length !== ALL.length) { this.cols = cols; this.open(); }
      }
      if (frame.version !== this.version) this.resync(false);
      this.view.applyTransforms(frame);
      await this.view.drawn();
    }
  }

  /** Slow the stream down while the scene is paused. */
  set paused(p) {
    if (this.running === !p) return;
    this.running = !p;
    this.ask(p ? PAUSED_FPS : this.top);
  }

  /** The most frames a second asked for while running. */
  get top() { return this.yielding ? YIELD_FPS : FPS; }

  /**
   * Take the simulation's load (GET /api/stats): yield to a loaded
   * simulation on this machine, or stop yielding.
   */
  set load(load) {
    this.lastLoad = load; // the last load taken, for the page's tests and the console
    const y = MAY_YIELD && (this.yielding ? load >= YIELD_BELOW : load >= YIELD_ABOVE);
    if (y === this.yielding) return;
    this.yielding = y;
    if (this.running) this.ask(this.top);
  }

  /** (Re)open the stream at fps frames a second, unless it is at that rate already. */
  ask(fps) {
    this.behind = this.kept = 0;
    if (fps !== this.fps) { this.fps = fps; this.open(); }
  }

  /**
   * Once a second, while running: ask for about the frames drawn when
   * the view fell behind for two seconds, half as many more again when
   * it drew all it was sent for two.
   */
  adapt() {
    if (!this.running) return;
    const top = this.top;
    this.behind = this.rate < this.fps - SHORT ? this.behind + 1 : 0;
    this.kept = this.rate >= this.fps - 1 ? this.kept + 1 : 0;
    if (this.behind >= 2) this.ask(Math.max(Math.min(MIN_FPS, top), Math.min(top, this.rate + 3)));
    else if (this.kept >= 2 && this.fps < top) this.ask(Math.min(top, Math.round(this.fps * 1.5)));
  }

  /** (Re)open the stream with the current columns and rate. */
  async open() {
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    const url = `api/transforms/stream?components=${this.cols.join(',')}&selector=${encodeURIComponent(SELECTOR)}&fps=${this.fps}`;
    try {
      const res = await fetch(url, { signal: controller.signal, cache: 'no-store' });
      if (!res.ok) throw new Error(`${res.status} ${(await res.json()).error}`);
      await this.read(res.body.getReader(), res.headers.get('X-Layout') || '');
    } catch (err) {
      if (controller.signal.aborted) return; // replaced by a newer stream
      this.info.textContent = `view: ${err.message}`;
    }
    if (controller === this.controller) setTimeout(() => { if (controller === this.controller) this.open(); }, 1000);
  }

  /** Cut the byte stream into frames (uint32 length, then the frame). */
  async read(reader, layout) {
    let buf = new Uint8Array(1 << 20);
    let len = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      if (len + value.length > buf.length) {
        const bigger = new Uint8Array(Math.max(2 * buf.length, len + value.length));
        bigger.set(buf.subarray(0, len));
        buf = bigger;
      }
      buf.set(value, len);
      len += value.length;
      let at = 0;
      let newest = null;
      while (len - at >= 4) {
        const size = new DataView(buf.buffer, at, 4).getUint32(0, true);
        if (len - at - 4 < size) break;
        newest = buf.slice(at + 4, at + 4 + size).buffer; // its own copy
        at += 4 + size;
      }
      if (at > 0) { buf.copyWithin(0, at, len); len -= at; }
      if (newest) this.push(newest, layout);
    }
  }

  push(buffer, layout) {
    const head = new DataView(buffer, 0, 16);
    this.bytes = buffer.byteLength;
    this.latest = {
      buffer,
      count: head.getUint32(0, true),
      stride: head.getUint32(4, true),
      // The version is a uint64; no scene comes near 2^53 changes.
      version: Number(head.getBigUint64(8, true)),
      layout,
    };
    if (this.wake) { this.wake(); this.wake = null; }
  }

  /** The newest frame, when there is one. */
  async next() {
    while (!this.latest) await new Promise((resolve) => { this.wake = resolve; });
    const f = this.latest;
    this.latest = null;
    return f;
  }

  /**
   * Fetch the references and colours again: after an edit (edited, the
   * default: the columns left out are looked for too), or for the
   * stream's news of a structural change (edited false).
   */
  resync(edited = true) {
    if (edited) this.edited = true;
    if (this.syncing) { this.again = true; return; }
    if (this.syncTimer) return; // one is already on its way
    const wait = this.syncAt + (this.yielding ? YIELD_SYNC_EVERY : SYNC_EVERY) - performance.now();
    if (wait > 0) {
      this.syncTimer = setTimeout(() => { this.syncTimer = null; this.resync(false); }, wait);
      return;
    }
    this.syncAt = performance.now();
    this.syncing = this.sync().catch(() => {}).finally(() => {
      this.syncing = null;
      if (this.again) { this.again = false; this.resync(false); }
    });
  }

  async sync() {
    const q = await get(`api/query?selector=${encodeURIComponent(SELECTOR)}`);
    const c = await getPacked(`api/colors?selector=${encodeURIComponent(SELECTOR)}`);
    const shapes = await this.shapes();
    await this.columns();
    this.view.setEntities({ refs: q.matches, colors: new Uint8Array(c.buffer, 16, 4 * c.count), shapes });
    if (q.version !== this.version) {
      this.version = q.version;
      this.store.sceneChanged(true);
    }
  }

  /**
   * The shapes of the entities with a geometry (GET /api/table, the
   * geometry column alone): ref -> {key, size}. None (all boxes) if the
   * server cannot say.
   */
  async shapes() {
    // A spawning scene changes its structure every tick; 10,000 shapes
    // are not fetched that often. Meanwhile an entity keeps the shape of
    // its reference, or is a box.
    if (performance.now() - this.shapesAt < SHAPES_EVERY) return this.shapeMap;
    this.shapesAt = performance.now();
    const byRef = new Map();
    try {
      const t = await get(`api/table?selector=${encodeURIComponent(`${SELECTOR}[geometry]`)}&components=geometry&limit=100000`);
      for (const r of t.rows) if (r.cells[0] !== null) byRef.set(r.ref, shapeOf(r.cells[0]));
    } catch { /* an older server: boxes */ }
    this.shapeMap = byRef;
    return byRef;
  }

  /**
   * Whether some entity now has a column the stream leaves out: if so,
   * open it again with every column (the frames then say which to keep).
   */
  async columns() {
    if (this.cols === ALL) return;
    if (!this.edited && performance.now() - this.columnsAt < COLUMNS_EVERY) return;
    this.edited = false;
    this.columnsAt = performance.now();
    for (const col of ALL) {
      if (this.cols.includes(col)) continue;
      try {
        const t = await get(`api/table?selector=${encodeURIComponent(`${SELECTOR}[${col}]`)}&components=${col}&limit=1`);
        if (t.count > 0) { this.cols = ALL; this.open(); return; }
      } catch { return; } // asked again at the next sync
    }
  }

  measure() {
    const u = this.view.updates;
    this.rate = u - this.lastUpdates;
    this.lastUpdates = u;
    const kb = this.bytes / 1024;
    this.info.textContent = `${this.view.count.toLocaleString('en')} shapes · ${this.rate} updates/s · ${kb < 10 ? kb.toFixed(1) : Math.round(kb).toLocaleString('en')} KB/update${this.yielding ? ' · yielding to the simulation' : ''}`;
    this.info.title = this.yielding ? 'The simulation takes all the time this machine gives it: the page draws and fetches less, so as to take little of it (open the page with ?yield=0 to draw at full rate).' : '';
    this.info.dataset.yielding = String(this.yielding);
    this.info.dataset.rate = String(this.rate);
    this.info.dataset.bytes = String(this.bytes);
  }
}

/** The columns some entity of a frame has (position always). */
function present(frame) {
  const f = new Float32Array(frame.buffer, 16, frame.count * frame.stride);
  const cols = [];
  let off = 0;
  for (const part of frame.layout.split(',')) {
    const [name, n] = part.split(':');
    let any = name === 'position';
    for (let i = 0; !any && i < frame.count; i++) any = !Number.isNaN(f[i * frame.stride + off]);
    if (any) cols.push(name);
    off += Number(n);
  }
  return cols;
}
