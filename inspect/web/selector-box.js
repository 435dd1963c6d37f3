// selector-box.js: the selector box. As the user types, the selector is
// run on the live scene (GET /api/query) and its matches go to the store,
// which the tree and the view highlight. A selector that does not compile
// shows the selector package's message with a caret under its column.

import { get, ApiError } from './api.js';

const DEBOUNCE = 120; // ms after the last key stroke
const REFRESH = 1000; // ms: matches of value predicates change as the scene runs

export class SelectorBox {
  constructor({ input, status, error }, store) {
    this.input = input;
    this.status = status;
    this.error = error;
    this.store = store;
    this.timer = 0;
    this.seq = 0; // answers to older requests are dropped
    this.last = ''; // the matches last sent, to skip unchanged refreshes
    input.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.run(), DEBOUNCE);
    });
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') { input.value = ''; this.run(); }
    });
    // A change made through the API or a reload runs the selector again at
    // once; one the stream saw (the simulation spawning or expiring
    // entities, up to four times a second) waits for the refresh below:
    // each run brings every match (10,000 references in the cube scene)
    // and repaints the tree, the view and the table.
    store.on('scene', ({ stream }) => { if (!stream) this.run(); });
    setInterval(() => { if (this.input.value.trim() && !document.hidden) this.run(); }, REFRESH);
  }

  async run() {
    const sel = this.input.value;
    const seq = ++this.seq;
    if (!sel.trim()) {
      this.show(null);
      this.last = '';
      this.store.setMatches('', null);
      return;
    }
    try {
      const r = await get(`api/query?selector=${encodeURIComponent(sel)}`);
      if (seq !== this.seq) return;
      this.show(null, r.count);
      const key = `${sel}\n${r.matches.join('\n')}`;
      if (key !== this.last) {
        this.last = key;
        this.store.setMatches(sel, r.matches);
      }
    } catch (err) {
      if (seq !== this.seq) return;
      this.last = '';
      this.show(err);
      this.store.setMatches(sel, []);
    }
  }

  /** Show the count, or the error with a caret under its column. */
  show(err, count) {
    this.input.classList.toggle('invalid', !!err);
    if (!err) {
      this.error.hidden = true;
      this.error.textContent = '';
      this.status.textContent = count === undefined ? '' : `${count.toLocaleString('en')} ${count === 1 ? 'match' : 'matches'}`;
      this.status.classList.toggle('none', count === 0);
      return;
    }
    this.status.textContent = '';
    const col = err instanceof ApiError ? err.body.col : 0;
    const lines = [];
    if (col > 0) lines.push(this.input.value, `${' '.repeat(col - 1)}^`);
    lines.push(err.message);
    this.error.textContent = lines.join('\n');
    this.error.hidden = false;
  }
}
