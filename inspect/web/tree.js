// tree.js: the scene tree, in document order, from GET /api/tree.
//
// A scene may hold 10,000 entities, so the list is virtual: only the rows
// in sight are in the DOM, each ROW pixels high, over a spacer as tall as
// the whole list. Parents with many children start collapsed.

import { get } from './api.js';

const ROW = 22; // px, as .row in style.css
const COLLAPSE_OVER = 50; // children: a parent with more starts collapsed

export class Tree {
  constructor({ list, filter, count }, store) {
    this.list = list;
    this.filterInput = filter;
    this.countEl = count;
    this.store = store;
    this.nodes = []; // {ref, id, class, depth, children}, document order
    this.index = new Map(); // ref -> position in nodes
    this.collapsed = new Set(); // refs
    this.seen = new Set(); // refs whose collapsed state was decided
    this.rows = []; // the nodes shown, after collapsing and filtering
    this.version = -1;

    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    this.list.append(this.spacer);
    this.list.addEventListener('scroll', () => this.paint());
    this.list.addEventListener('click', (ev) => this.clicked(ev));
    this.list.addEventListener('keydown', (ev) => this.key(ev));
    this.filterInput.addEventListener('input', () => this.layout());
    new ResizeObserver(() => this.paint()).observe(this.list);

    store.on('select', ({ ref }) => { if (ref) this.reveal(ref); this.paint(); });
    store.on('matches', () => this.paint());
  }

  /** Fetch the tree again. */
  async load() {
    const t = await get('api/tree');
    this.version = t.version;
    this.nodes = t.entities;
    this.index = new Map(this.nodes.map((n, i) => [n.ref, i]));
    for (const n of this.nodes) {
      if (!this.seen.has(n.ref)) {
        this.seen.add(n.ref);
        if (n.children > COLLAPSE_OVER) this.collapsed.add(n.ref);
      }
    }
    this.layout();
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
        hideBelow = this.collapsed.has(n.ref) ? n.depth : Infinity;
        rows.push(n);
      }
    }
    this.rows = rows;
    this.flat = !!q;
    const total = this.nodes.length;
    const n = (x) => x.toLocaleString('en');
    this.countEl.textContent = q ? `${n(rows.length)} of ${n(total)}` : `${n(total)} ${total === 1 ? 'entity' : 'entities'}`;
    this.spacer.style.height = `${rows.length * ROW}px`;
    this.paint();
  }

  /** Draw the rows in sight. */
  paint() {
    const top = this.list.scrollTop;
    const first = Math.max(0, Math.floor(top / ROW) - 5);
    const last = Math.min(this.rows.length, Math.ceil((top + this.list.clientHeight) / ROW) + 5);
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) frag.append(this.row(this.rows[i], i));
    this.spacer.replaceChildren(frag);
  }

  row(n, i) {
    const el = document.createElement('div');
    el.className = 'row';
    el.dataset.ref = n.ref;
    el.setAttribute('role', 'treeitem');
    el.style.top = `${i * ROW}px`;
    el.style.paddingLeft = `${6 + (this.flat ? 0 : n.depth * 14)}px`;
    if (n.ref === this.store.selected) el.classList.add('selected');
    const m = this.store.matches;
    if (m && m.has(n.ref)) el.classList.add('match');

    const tw = document.createElement('span');
    tw.className = 'twisty';
    if (n.children && !this.flat) {
      tw.textContent = this.collapsed.has(n.ref) ? '▸' : '▾';
      tw.title = `${n.children} ${n.children === 1 ? 'child' : 'children'}`;
    }
    const name = document.createElement('span');
    if (n.id) {
      name.className = 'id';
      name.textContent = `#${n.id}`;
    } else {
      name.className = 'path';
      name.textContent = n.ref;
    }
    el.append(tw, name);
    for (const c of n.class || []) {
      const s = document.createElement('span');
      s.className = 'cls';
      s.textContent = `.${c}`;
      el.append(s);
    }
    if (n.children && this.collapsed.has(n.ref) && !this.flat) {
      const s = document.createElement('span');
      s.className = 'more';
      s.textContent = n.children.toLocaleString('en');
      el.append(s);
    }
    return el;
  }

  clicked(ev) {
    const row = ev.target.closest('.row');
    if (!row) return;
    const ref = row.dataset.ref;
    if (ev.target.classList.contains('twisty')) {
      if (this.collapsed.has(ref)) this.collapsed.delete(ref); else this.collapsed.add(ref);
      this.layout();
      return;
    }
    this.list.focus();
    this.store.select(ref);
  }

  /** Up and down move the selection; left and right fold. */
  key(ev) {
    const at = this.rows.findIndex((n) => n.ref === this.store.selected);
    const n = this.rows[at];
    switch (ev.key) {
      case 'ArrowDown': if (at + 1 < this.rows.length) this.store.select(this.rows[at + 1].ref); break;
      case 'ArrowUp': if (at > 0) this.store.select(this.rows[at - 1].ref); break;
      case 'ArrowLeft': if (n && n.children) { this.collapsed.add(n.ref); this.layout(); } break;
      case 'ArrowRight': if (n && n.children) { this.collapsed.delete(n.ref); this.layout(); } break;
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
        opened = this.collapsed.delete(this.nodes[i].ref) || opened;
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

/** The text the filter looks in: reference, id and classes. */
function text(n) {
  return [n.ref, n.id ? `#${n.id}` : '', ...(n.class || []).map((c) => `.${c}`)].join(' ');
}
