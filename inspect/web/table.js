// table.js: the selector's results as a table (GET /api/table): one row
// per match, a column per component the selector names ([health.hp<50]
// gives health.hp), or per component the user lists in the columns
// field. The list is virtual: only the rows in sight are asked for
// (offset and limit) and in the DOM, so 10,000 matches cost what 30
// rows cost. The values are live: the rows in sight are fetched again
// twice a second while the table is shown. Click a row to select its
// entity.

import { get } from './api.js';
import { place, put } from './keyed.js';

const ROW = 22; // px, as .trow in style.css
const REFRESH = 500; // ms between fetches of the rows in sight
const MARGIN = 5; // rows fetched beyond those in sight, each way

export class ResultsTable {
  constructor({ body, head, columns, status }, store, shown) {
    this.body = body; // the scrolled element
    this.head = head; // the header row
    this.columnsInput = columns;
    this.status = status;
    this.store = store;
    this.shown = shown; // () => whether the table is in sight
    this.spacer = document.createElement('div');
    this.spacer.className = 'spacer';
    body.append(this.spacer);
    this.answer = null; // the last GET /api/table answer
    this.rowEls = new Map(); // ref -> element
    this.seq = 0;
    this.fetches = 0; // answers taken (the browser tests read it)
    this.busy = false;
    body.addEventListener('scroll', () => this.refresh());
    body.addEventListener('click', (ev) => {
      const row = ev.target.closest('.trow');
      if (row) store.select(row.dataset.ref);
    });
    columns.addEventListener('change', () => this.refresh());
    columns.addEventListener('keydown', (ev) => { if (ev.key === 'Enter') this.refresh(); });
    store.on('matches', () => this.refresh());
    store.on('select', () => this.paint());
    new ResizeObserver(() => this.refresh()).observe(body);
    setInterval(() => { if (!document.hidden) this.refresh(); }, REFRESH);
  }

  /** Fetch the rows in sight again, unless a fetch is under way or nothing is shown. */
  async refresh() {
    const sel = this.store.selector;
    if (!sel || !this.store.matches || !this.shown()) {
      if (!sel) this.clear();
      return;
    }
    if (this.busy) return;
    this.busy = true;
    const seq = ++this.seq;
    const first = Math.max(0, Math.floor(this.body.scrollTop / ROW) - MARGIN);
    const limit = Math.ceil(this.body.clientHeight / ROW) + 2 * MARGIN;
    const cols = this.columnsInput.value.split(',').map((c) => c.trim()).filter(Boolean);
    let url = `api/table?selector=${encodeURIComponent(sel)}&offset=${first}&limit=${limit}`;
    if (cols.length) url += `&components=${encodeURIComponent(cols.join(','))}`;
    try {
      const t = await get(url);
      if (seq !== this.seq || this.store.selector !== sel) return;
      this.answer = t;
      this.fetches++;
      this.status.textContent = '';
      this.status.className = 'table-status';
      this.paint();
    } catch (err) {
      this.status.className = 'table-status error';
      this.status.textContent = err.message;
    } finally {
      this.busy = false;
    }
  }

  clear() {
    this.answer = null;
    this.paint();
  }

  /** Show the last answer: the header, the spacer's height, the rows in sight. */
  paint() {
    const t = this.answer;
    if (!t) {
      this.head.replaceChildren();
      put(this.spacer.style, 'height', '0px');
      place(this.spacer, []);
      this.rowEls = new Map();
      put(this.status, 'textContent', this.store.selector ? '' : 'Type a selector: its matches are listed here, a row each.');
      return;
    }
    const cols = ['entity', ...t.columns];
    const template = `minmax(90px, 0.8fr) ${t.columns.map(() => 'minmax(80px, 1fr)').join(' ')}`;
    put(this.head.style, 'gridTemplateColumns', template);
    if (this.head.dataset.cols !== cols.join(',')) {
      this.head.dataset.cols = cols.join(',');
      this.head.replaceChildren(...cols.map((c) => cell(c)));
    }
    put(this.spacer.style, 'height', `${t.count * ROW}px`);
    const els = new Map();
    t.rows.forEach((r, k) => {
      const el = this.rowEls.get(r.ref) || document.createElement('div');
      el.className = 'trow';
      el.dataset.ref = r.ref;
      el.classList.toggle('selected', r.ref === this.store.selected);
      put(el.style, 'top', `${(t.offset + k) * ROW}px`);
      put(el.style, 'gridTemplateColumns', template);
      const texts = [r.ref, ...r.cells.map((c) => (c === null ? '—' : c))];
      while (el.children.length < texts.length) el.append(cell(''));
      while (el.children.length > texts.length) el.lastChild.remove();
      texts.forEach((x, i) => { put(el.children[i], 'textContent', rounded(x)); put(el.children[i], 'title', x); });
      el.children[0].className = 'tcell ref';
      els.set(r.ref, el);
    });
    this.rowEls = els;
    place(this.spacer, [...els.values()]);
    if (!t.columns.length) put(this.status, 'textContent', 'The selector names no component: list the columns to show above.');
  }
}

/** A cell's text with long decimals rounded to 4 places (the full text is its title). */
function rounded(text) {
  return text.replace(/-?\d+\.\d{5,}/g, (m) => String(Math.round(Number(m) * 1e4) / 1e4));
}

function cell(text) {
  const d = document.createElement('div');
  d.className = 'tcell';
  d.textContent = text;
  return d;
}
