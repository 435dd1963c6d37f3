// history.js: undo and redo. The server keeps a journal of the commands
// made through the API (GET /api/history); POST /api/undo and /api/redo
// take them back and make them again, and every client hears of it on
// the event stream ("history": {op: do|undo|redo|clear, cursor, entry}),
// so two pages on one run show one history. The buttons and Ctrl-Z /
// Ctrl-Shift-Z (Ctrl-Y too; not while typing in a field) undo and redo;
// the list shows the journal, newest first, undone entries struck out,
// and last how many older changes the server dropped to keep the history
// within its bounds (GET /api/history's "dropped"; undo stops there). A
// server without the journal (404 or 501) leaves the buttons disabled,
// saying why.

import { get, post, ApiError } from './api.js';
import { typing } from './keys.js';
import { place, put as assign } from './keyed.js';

export class History {
  constructor({ undo, redo, list, message }, store) {
    this.buttons = { undo, redo };
    this.list = list;
    this.message = message;
    this.store = store;
    this.entries = []; // {seq, op, ref, entity, component, summary, saved, undone}, oldest first
    this.cursor = 0;
    this.dropped = 0; // the oldest entries the server dropped (its bounds)
    this.droppedRow = null; // the row that says so
    this.supported = null; // unknown until the first answer
    this.why = '';
    this.rows = new Map(); // seq -> row element
    this.events = 0; // history events taken (the browser tests read it)
    undo.addEventListener('click', () => this.send('undo'));
    redo.addEventListener('click', () => this.send('redo'));
    window.addEventListener('keydown', (ev) => {
      if (!(ev.ctrlKey || ev.metaKey) || ev.altKey || typing(ev)) return;
      const k = ev.key.toLowerCase();
      if (k === 'z') { ev.preventDefault(); this.send(ev.shiftKey ? 'redo' : 'undo'); }
      else if (k === 'y') { ev.preventDefault(); this.send('redo'); }
    });
    list.addEventListener('click', (ev) => {
      const row = ev.target.closest('[data-ref]');
      if (row) store.select(row.dataset.ref);
    });
    this.render();
  }

  /** Fetch the journal (at the start, and when the stream says it was cleared or reconnects). */
  async load() {
    try {
      const h = await get('api/history');
      this.supported = true;
      this.entries = h.entries || [];
      this.cursor = h.cursor;
      this.dropped = h.dropped || 0;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 501 || err.status === 405)) {
        this.supported = false;
        this.why = `this server keeps no history of commands (GET /api/history answered ${err.status})`;
      } else {
        this.message.textContent = `history: ${err.message}`;
      }
    }
    this.render();
  }

  /** A "history" event of the stream. */
  event(ev) {
    this.events++;
    if (ev.op === 'clear' || !ev.entry) {
      this.load();
      return;
    }
    const e = ev.entry;
    if (ev.op === 'do') {
      // A new command drops the undone ones: there is nothing to redo.
      this.entries = this.entries.filter((x) => !x.undone && x.seq !== e.seq);
      this.entries.push(e);
    } else {
      const at = this.entries.findIndex((x) => x.seq === e.seq);
      if (at >= 0) this.entries[at] = e; else this.load();
    }
    this.cursor = ev.cursor;
    this.supported = true;
    const dropped = ev.dropped || 0;
    if (ev.op === 'do' && dropped > this.dropped) {
      // A new command: the server dropped that many of its oldest.
      this.entries.splice(0, dropped - this.dropped);
      this.dropped = dropped;
    } else if (dropped !== this.dropped) {
      this.load(); // an undo or redo let go of entries: take the server's list
    }
    this.render();
  }

  /** POST /api/undo or /api/redo; a refusal (409) shows its reason. */
  async send(what) {
    if (this.supported === false) return;
    if (this.buttons[what].disabled) return;
    try {
      const r = await post(`api/${what}`);
      this.message.textContent = '';
      if (r && r.entry) this.event({ op: what, cursor: r.cursor, entry: r.entry, dropped: this.dropped });
    } catch (err) {
      this.message.textContent = `${what}: ${err.message}`;
      if (err instanceof ApiError && (err.status === 404 || err.status === 501)) {
        this.supported = false;
        this.why = `this server cannot ${what} (POST /api/${what} answered ${err.status})`;
        this.render();
      }
    }
  }

  render() {
    const { undo, redo } = this.buttons;
    const done = this.entries.filter((e) => !e.undone);
    const undone = this.entries.filter((e) => e.undone);
    const next = done[done.length - 1];
    const again = undone[0];
    if (this.supported === false) {
      undo.disabled = redo.disabled = true;
      undo.title = redo.title = this.why;
    } else {
      undo.disabled = !next;
      redo.disabled = !again;
      undo.title = next ? `undo: ${next.summary} (Ctrl-Z)` : 'nothing to undo';
      redo.title = again ? `redo: ${again.summary} (Ctrl-Shift-Z)` : 'nothing to redo';
    }
    const rows = [];
    for (const e of [...this.entries].reverse()) {
      let li = this.rows.get(e.seq);
      if (!li) {
        li = document.createElement('li');
        li.dataset.seq = String(e.seq);
        li.append(document.createElement('span'), document.createElement('span'));
        li.firstChild.className = 'seq';
        li.lastChild.className = 'summary';
      }
      if (e.ref) li.dataset.ref = e.ref; else delete li.dataset.ref;
      li.classList.toggle('undone', !!e.undone);
      assign(li.firstChild, 'textContent', `${e.seq}`);
      assign(li.lastChild, 'textContent', `${e.summary || e.op}${e.saved ? ' · saved' : ''}`);
      rows.push(li);
    }
    this.rows = new Map(rows.map((li) => [Number(li.dataset.seq), li]));
    if (this.dropped > 0) {
      if (!this.droppedRow) {
        this.droppedRow = document.createElement('li');
        this.droppedRow.className = 'dropped';
        this.droppedRow.title = 'the server keeps a bounded history (its number of changes and the bytes they hold): undo stops here';
      }
      const n = this.dropped;
      assign(this.droppedRow, 'textContent', `${n} older ${n === 1 ? 'change' : 'changes'} dropped`);
      rows.push(this.droppedRow);
    } else if (!rows.length) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = this.supported === false ? this.why : 'No commands yet: edits, creations and deletions made here or by any client are listed, newest first.';
      rows.push(li);
    }
    place(this.list, rows);
  }
}
