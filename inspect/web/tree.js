// tree.js: the scene tree, in document order, from GET /api/tree.
//
// A scene may hold 10,000 entities, so the list is virtual: only the rows
// in sight are in the DOM, each ROW pixels high, over a spacer as tall as
// the whole list. Parents with many children start collapsed.
//
// Rows are kept per entity (keyed by entityKey, not by path: a path
// shifts when an earlier sibling goes): while the scene spawns and
// expires entities, a row that stays in sight stays the same DOM node,
// updated in place, so a click, the hover or the focus on it is not lost.
// Folding and the selection follow the entity too.
//
// A row dragged (the pointer pressed on it and moved) onto another row
// asks onDrop(key, parentRef) to make it that entity's child; dropped on
// the root strip above the rows, or below them, onDrop(key, null) makes
// it a root. A drag is made of pointer events, not HTML drag and drop,
// so that the row under the pointer is marked as the drop target.

import { get } from './api.js';
import { entityKey } from './store.js';
import { place, put } from './keyed.js';

const ROW = 22; // px, as .row in style.css
const COLLAPSE_OVER = 50; // children: a parent with more starts collapsed
const DRAG_PX = 6; // the pointer moves this far with the button down: a drag, not a click
// ms between the starts of two loads for the transform stream's news of a
// new World version: a scene that spawns every tick has a new one in
// every frame, and the whole tree of 10,000 entities (half a megabyte)
// fetched several times a second was a good part of what two pages cost
// the simulation, for a list of some thirty rows in sight. Edits,
// reloads and undo still load it at once.
const STREAM_EVERY = 1000;

export class Tree {
  constructor({ list, filter, count, root }, store) {
    this.list = list;
    this.rootZone = root; // the strip a row is dropped on to make it a root
    this.onDrop = null; // (key, parentRef | null) => void
    this.drag = null; // {key, x, y, moving, over}
    this.dragged = false; // the last press was a drag: no click
    this.filterInput = filter;
    this.countEl = count;
    this.store = store;
    this.nodes = []; // {ref, id, handle, class, depth, children}, document order
    this.index = new Map(); // ref -> position in nodes
    this.byKey = new Map(); // entityKey -> node
    this.collapsed = new Set(); // keys
    this.seen = new Set(); // keys whose collapsed state was decided
    this.rows = []; // the nodes shown, after collapsing and filtering
    this.rowEls = new Map(); // key -> its row element, for the rows in the DOM
    this.version = -1;
    this.loading = null; // the load under way
    this.again = false; // load again once it is done
    this.loadedAt = -Infinity; // when the last load began
    this.soonTimer = 0; // a load waiting for STREAM_EVERY to pass

    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    this.list.append(this.spacer);
    this.list.addEventListener('scroll', () => this.paint());
    this.list.addEventListener('click', (ev) => this.clicked(ev));
    this.list.addEventListener('keydown', (ev) => this.key(ev));
    this.list.addEventListener('pointerdown', (ev) => this.press(ev));
    window.addEventListener('pointermove', (ev) => this.dragMove(ev));
    window.addEventListener('pointerup', (ev) => this.release(ev));
    this.filterInput.addEventListener('input', () => this.layout());
    new ResizeObserver(() => this.paint()).observe(this.list);

    store.on('select', ({ ref, same }) => { if (ref && !same) this.reveal(ref); this.paint(); });
    store.on('matches', () => this.paint());
  }

  /**
   * Fetch the tree again. Calls while a fetch is under way make one more
   * fetch after it, not one each: the cube scene changes faster than
   * 10,000 entities can be fetched.
   */
  load() {
    this.loadedAt = performance.now();
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          this.take(await get('api/tree'));
        } while (this.again);
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  /** Load within STREAM_EVERY of the last load (for the stream's news); a failure goes to onError. */
  loadSoon(onError) {
    if (this.soonTimer) return;
    const wait = Math.max(0, this.loadedAt + STREAM_EVERY - performance.now());
    this.soonTimer = setTimeout(() => { this.soonTimer = 0; this.load().catch(onError); }, wait);
  }

  /** Take a GET /api/tree answer. */
  take(t) {
    this.version = t.version;
    this.nodes = t.entities;
    this.index = new Map(this.nodes.map((n, i) => [n.ref, i]));
    this.byKey = new Map(this.nodes.map((n) => [entityKey(n), n]));
    const seen = new Set();
    for (const n of this.nodes) {
      const k = entityKey(n);
      seen.add(k);
      if (!this.seen.has(k) && n.children > COLLAPSE_OVER) this.collapsed.add(k);
    }
    this.seen = seen; // entities gone are forgotten
    for (const k of this.collapsed) if (!seen.has(k)) this.collapsed.delete(k);
    this.layout();
    // The selected entity may have a new path: the selection follows it.
    const sel = this.store.key && this.byKey.get(this.store.key);
    if (sel) this.store.follow(sel.ref);
  }

  /** Recompute the rows shown, then paint. */
  layout() {
    const q = this.filterInput.value.trim().toLowerCase();
    const rows = [];
    if (q) {
      // Filtering shows the matching entities alone, flat.
      for (const n of this.nodes) if (text(n).toLowerCase().includes(q)) rows.push(n);
    } else {
      let hideBelow = Infinity; // depth of a collapsed ancestor
      for (const n of this.nodes) {
        if (n.depth > hideBelow) continue;
        hideBelow = this.collapsed.has(entityKey(n)) ? n.depth : Infinity;
        rows.push(n);
      }
    }
    this.rows = rows;
    this.flat = !!q;
    const total = this.nodes.length;
    const n = (x) => x.toLocaleString('en');
    put(this.countEl, 'textContent', q ? `${n(rows.length)} of ${n(total)}` : `${n(total)} ${total === 1 ? 'entity' : 'entities'}`);
    put(this.spacer.style, 'height', `${rows.length * ROW}px`);
    this.paint();
  }

  /** Bring the rows in sight up to date, keeping each entity's row element. */
  paint() {
    const top = this.list.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW) - 5);
    const last = Math.min(this.rows.length, Math.ceil((top + this.list.clientHeight) / ROW) + 5);
    const shown = new Map();
    for (let i = first; i < last; i++) {
      const n = this.rows[i];
      const k = entityKey(n);
      if (shown.has(k)) continue;
      const el = this.rowEls.get(k) || newRow(k);
      this.fill(el, n, i);
      shown.set(k, el);
    }
    this.rowEls = shown;
    place(this.spacer, [...shown.values()]);
  }

  /** Whether n is the selected entity. */
  isSelected(n) {
    const s = this.store;
    return s.key ? entityKey(n) === s.key : n.ref === s.selected;
  }

  /** Make a row show node n at position i, writing only what changed. */
  fill(el, n, i) {
    const folds = n.children > 0 && !this.flat;
    const folded = folds && this.collapsed.has(entityKey(n));
    put(el.dataset, 'ref', n.ref);
    put(el.style, 'top', `${i * ROW}px`);
    put(el.style, 'paddingLeft', `${6 + (this.flat ? 0 : n.depth * 14)}px`);
    el.classList.toggle('selected', this.isSelected(n));
    const m = this.store.matches;
    el.classList.toggle('match', !!(m && m.has(n.ref)));

    const [tw, name] = el.children;
    put(tw, 'textContent', folds ? (folded ? '▸' : '▾') : '');
    put(tw, 'title', folds ? `${n.children} ${n.children === 1 ? 'child' : 'children'}` : '');
    put(name, 'className', n.id ? 'id' : 'path');
    put(name, 'textContent', n.id ? `#${n.id}` : n.ref);
    // Then the classes, and the number of children of a folded parent.
    const extra = (n.class || []).map((c) => ['cls', `.${c}`]);
    if (folded) extra.push(['more', n.children.toLocaleString('en')]);
    let s = name.nextElementSibling;
    for (const [cls, t] of extra) {
      if (!s) s = el.appendChild(document.createElement('span'));
      put(s, 'className', cls);
      put(s, 'textContent', t);
      s = s.nextElementSibling;
    }
    while (s) {
      const next = s.nextElementSibling;
      s.remove();
      s = next;
    }
  }

  /** The pointer pressed on a row: maybe the start of a drag. */
  press(ev) {
    this.dragged = false;
    const row = ev.target.closest('.row');
    if (ev.button !== 0 || !row || ev.target.classList.contains('twisty')) return;
    this.drag = { key: row.dataset.key, x: ev.clientX, y: ev.clientY, moving: false, over: undefined };
  }

  dragMove(ev) {
    const d = this.drag;
    if (!d) return;
    if (!d.moving) {
      if (Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < DRAG_PX) return;
      d.moving = true;
      document.body.classList.add('tree-dragging');
      this.list.querySelector(`.row[data-key="${CSS.escape(d.key)}"]`)?.classList.add('dragged');
    }
    const over = this.dropAt(ev.clientX, ev.clientY);
    for (const el of this.list.querySelectorAll('.drop-target')) el.classList.remove('drop-target');
    if (this.rootZone) this.rootZone.classList.toggle('drop-target', over === null);
    if (over) this.list.querySelector(`.row[data-key="${CSS.escape(over.key)}"]`)?.classList.add('drop-target');
    d.over = over;
  }

  /**
   * Where a drop at a point goes: {key, ref} of the row under it, null
   * for the root (the root strip, or the list below its rows), undefined
   * for nowhere.
   */
  dropAt(x, y) {
    const el = document.elementFromPoint(x, y);
    if (!el) return undefined;
    if (this.rootZone && this.rootZone.contains(el)) return null;
    const row = el.closest('.row');
    if (row && this.list.contains(row)) {
      const n = this.byKey.get(row.dataset.key);
      return n ? { key: row.dataset.key, ref: n.ref } : undefined;
    }
    return this.list.contains(el) ? null : undefined;
  }

  release() {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.moving) return;
    this.dragged = true;
    document.body.classList.remove('tree-dragging');
    for (const el of document.querySelectorAll('.drop-target, .dragged')) el.classList.remove('drop-target', 'dragged');
    if (d.over === undefined || (d.over && d.over.key === d.key)) return;
    if (this.onDrop) this.onDrop(d.key, d.over ? d.over.ref : null);
  }

  clicked(ev) {
    if (this.dragged) { this.dragged = false; return; }
    const row = ev.target.closest('.row');
    const n = row && this.byKey.get(row.dataset.key);
    if (!n) return;
    const k = row.dataset.key;
    if (ev.target.classList.contains('twisty')) {
      if (this.collapsed.has(k)) this.collapsed.delete(k); else this.collapsed.add(k);
      this.layout();
      return;
    }
    this.list.focus();
    this.store.select(n.ref, k);
  }

  /** Up and down move the selection; left and right fold. */
  key(ev) {
    const at = this.rows.findIndex((n) => this.isSelected(n));
    const n = this.rows[at];
    const go = (m) => this.store.select(m.ref, entityKey(m));
    switch (ev.key) {
      case 'ArrowDown': if (at + 1 < this.rows.length) go(this.rows[at + 1]); break;
      case 'ArrowUp': if (at > 0) go(this.rows[at - 1]); break;
      case 'ArrowLeft': if (n && n.children) { this.collapsed.add(entityKey(n)); this.layout(); } break;
      case 'ArrowRight': if (n && n.children) { this.collapsed.delete(entityKey(n)); this.layout(); } break;
      default: return;
    }
    ev.preventDefault();
  }

  /** Unfold the ancestors of ref and scroll its row into sight. */
  reveal(ref) {
    const at = this.index.get(ref);
    if (at === undefined) return;
    // The ancestors are the nearest earlier nodes of each smaller depth.
    let depth = this.nodes[at].depth;
    let opened = false;
    for (let i = at - 1; i >= 0 && depth > 0; i--) {
      if (this.nodes[i].depth < depth) {
        depth = this.nodes[i].depth;
        opened = this.collapsed.delete(entityKey(this.nodes[i])) || opened;
      }
    }
    if (opened) this.layout();
    const row = this.rows.findIndex((n) => n.ref === ref);
    if (row < 0) return;
    const y = row * ROW;
    if (y < this.list.scrollTop || y + ROW > this.list.scrollTop + this.list.clientHeight) {
      this.list.scrollTop = y - this.list.clientHeight / 2;
    }
  }
}

/** A row element for the entity of key k: the twisty and the name, filled by Tree.fill. */
function newRow(k) {
  const el = document.createElement('div');
  el.className = 'row';
  el.dataset.key = k;
  el.setAttribute('role', 'treeitem');
  const tw = document.createElement('span');
  tw.className = 'twisty';
  el.append(tw, document.createElement('span'));
  return el;
}

/** The text the filter looks in: reference, id and classes. */
function text(n) {
  return [n.ref, n.id ? `#${n.id}` : '', ...(n.class || []).map((c) => `.${c}`)].join(' ');
}
