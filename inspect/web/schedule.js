// schedule.js: the systems panel: the scheduler's phases and each
// system's time per tick (GET /api/schedule: workers, phases, and per
// system its kind, phase, order, batch, whether enabled, and p50, p99
// and last time in ms with its runs), fetched once a second while the
// panel is shown. A system can be turned off and on (its check box) or
// run once now (its step button): POST /api/schedule/disable, enable or
// step?name=SYSTEM. A server without the endpoint (404) gets a note
// saying so instead.

import { get, post, ApiError } from './api.js';
import { place, put } from './keyed.js';

const REFRESH = 1000; // ms

const ms = (v) => (typeof v === 'number' ? v.toFixed(3) : '');

export class SchedulePanel {
  constructor(el, shown) {
    this.el = el;
    this.shown = shown; // () => whether the panel is in sight
    this.missing = false; // the server has no /api/schedule
    this.rows = new Map();
    this.note = document.createElement('p');
    this.note.className = 'note';
    this.table = document.createElement('table');
    this.table.className = 'systems';
    const head = this.table.createTHead().insertRow();
    for (const h of ['system', 'kind', 'phase', 'order', 'batch', 'p50 ms', 'p99 ms', 'last ms', 'runs', '']) {
      const th = document.createElement('th');
      th.textContent = h;
      head.append(th);
    }
    this.tbody = this.table.createTBody();
    el.append(this.note, this.table);
    this.table.hidden = true;
    this.note.textContent = 'Loading the schedule…';
    setInterval(() => this.refresh(), REFRESH);
  }

  async refresh() {
    if (this.missing || document.hidden || !this.shown()) return;
    try {
      this.show(await get('api/schedule'));
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.status === 501)) {
        this.missing = true;
        this.note.textContent = `Per-system times come from GET /api/schedule, which this server does not have (it answered ${err.status}).`;
        this.table.hidden = true;
        return;
      }
      this.note.textContent = `schedule: ${err.message}`;
    }
  }

  show(s) {
    const phases = (s.phases || []).map((p) => p.name).join(' → ');
    put(this.note, 'textContent', `${s.workers ?? '?'} workers · phases: ${phases || 'none'}`);
    this.table.hidden = false;
    const rows = [];
    if (s.error) put(this.note, 'textContent', `${this.note.textContent} · error: ${s.error}`);
    const keys = [];
    for (const sys of s.systems || []) {
      // A name may come twice (a component's tick and tock): key by hook too.
      const key = `${sys.kind}\t${sys.name}\t${sys.hook || ''}`;
      keys.push(key);
      let tr = this.rows.get(key);
      if (!tr) {
        tr = document.createElement('tr');
        for (let i = 0; i < 10; i++) tr.insertCell();
        if (sys.kind === 'system') this.controls(tr.cells[9], sys.name);
      }
      const on = tr.cells[9].querySelector('input');
      if (on && document.activeElement !== on) on.checked = sys.enabled !== false;
      tr.classList.toggle('disabled', sys.enabled === false);
      const vals = [sys.name, sys.kind, sys.phase, sys.order, sys.batch, ms(sys.p50), ms(sys.p99), ms(sys.last), sys.runs];
      vals.forEach((v, i) => put(tr.cells[i], 'textContent', v === undefined || v === null ? '' : String(v)));
      rows.push(tr);
    }
    this.rows = new Map(rows.map((tr, i) => [keys[i], tr]));
    place(this.tbody, rows);
  }

  /** A system's controls: on/off, and run once now. */
  controls(cell, name) {
    const on = document.createElement('input');
    on.type = 'checkbox';
    on.title = `run ${name} every tick (off: the schedule skips it)`;
    on.addEventListener('change', () => this.send(on.checked ? 'enable' : 'disable', name));
    const step = document.createElement('button');
    step.type = 'button';
    step.className = 'step-system';
    step.textContent = 'step';
    step.title = `run ${name} once now`;
    step.addEventListener('click', () => this.send('step', name));
    cell.append(on, step);
  }

  async send(op, name) {
    try {
      this.show(await post(`api/schedule/${op}?name=${encodeURIComponent(name)}`));
    } catch (err) {
      this.note.textContent = `${op} ${name}: ${err.message}`;
    }
  }
}
