// behaviour.js: the selected entity's behaviour, in the panel. A box
// lists its running animations (with their progress), timers, handlers
// (on: events, firings, last error) and bindings (bind: path =
// expression → value), updated in place at each refresh of the panel;
// a form sends an event to the entity (POST .../events/NAME with a JSON
// detail), for a handler to react to.

import { post, entityURL } from './api.js';
import { place, put as assign } from './keyed.js';

export class BehaviourBox {
  /** target() is the reference the API is asked with. */
  constructor(target) {
    this.target = target;
    this.el = document.createElement('section');
    this.el.className = 'comp behaviour';
    const h = document.createElement('header');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = 'behaviour';
    h.append(name);
    this.list = document.createElement('div');
    this.list.className = 'runs';
    this.rows = new Map(); // key -> row element
    this.el.append(h, this.list, this.sender());
  }

  /** The form that sends an event to the entity. */
  sender() {
    const form = document.createElement('form');
    form.className = 'send-event';
    const name = document.createElement('input');
    name.type = 'text';
    name.name = 'event';
    name.placeholder = 'event, e.g. hit';
    name.spellcheck = false;
    const detail = document.createElement('input');
    detail.type = 'text';
    detail.name = 'detail';
    detail.placeholder = 'detail JSON, e.g. {"damage": 5}';
    detail.spellcheck = false;
    const btn = document.createElement('button');
    btn.textContent = 'Send';
    const msg = document.createElement('div');
    msg.className = 'send-msg';
    form.append(name, detail, btn, msg);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const n = name.value.trim();
      if (!n) return;
      try {
        const r = await post(`${entityURL(this.target())}/events/${encodeURIComponent(n)}`, detail.value);
        msg.className = r.errors && r.errors.length ? 'send-msg error' : 'send-msg';
        msg.textContent = r.errors && r.errors.length ? r.errors.join('\n') : `sent ${n} to ${r.entity}`;
      } catch (err) {
        msg.className = 'send-msg error';
        msg.textContent = err.message;
      }
    });
    return form;
  }

  /** Show b, the "behaviour" of GET /api/entities/REF (or undefined). */
  update(b) {
    b = b || {};
    const rows = [];
    const row = (key, cls, text, progress, error) => {
      let r = this.rows.get(key);
      if (!r) {
        r = document.createElement('div');
        r.className = `run ${cls}`;
        r.dataset.key = key;
        r.append(document.createElement('span'));
        if (progress !== undefined) {
          const bar = document.createElement('progress');
          bar.max = 1;
          r.append(bar);
        }
        const err = document.createElement('div');
        err.className = 'err';
        r.append(err);
        this.rows.set(key, r);
      }
      assign(r.firstChild, 'textContent', text);
      const bar = r.querySelector('progress');
      if (bar) assign(bar, 'value', progress);
      assign(r.lastChild, 'textContent', error || '');
      rows.push(r);
    };
    for (const a of b.animations || []) {
      const state = a.Done ? 'done' : a.Paused ? 'paused' : a.Delaying ? 'waiting' : a.Running ? 'running' : 'stopped';
      row(`a:${a.Name}`, 'anim', `${a.Name} ${a.Property} · ${state} · ${Math.round(a.Progress * 100)}%`, a.Progress);
    }
    for (const t of b.timers || []) {
      row(`t:${t.Name}`, 'timer', `${t.Name} → ${t.Event} · fired ${t.Fired}${t.Running ? '' : ' · stopped'}`);
    }
    for (const h of b.handlers || []) {
      row(`h:${h.Name}`, 'handler', `${h.Name} on ${(h.Events || []).join(', ')} · fired ${h.Fired}`, undefined, h.Error);
    }
    for (const [i, d] of (b.bindings || []).entries()) {
      row(`b:${d.Name}:${d.Path || i}`, 'binding', d.Path ? `${d.Name} ${d.Path} = ${d.Expression} → ${d.Value}` : d.Name, undefined, d.Error);
    }
    for (const k of [...this.rows.keys()]) if (!rows.some((r) => r.dataset.key === k)) this.rows.delete(k);
    place(this.list, rows);
    assign(this.list, 'hidden', rows.length === 0);
  }
}
