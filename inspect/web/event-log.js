// event-log.js: the entity events as they fire ("entity-event" on the
// event stream), newest first. The server sends at most a burst of each
// event name at once, then a few a second, and says how many it left
// out; the filter shows only the events whose name matches (a name, or
// several separated by commas or spaces; empty: all). Clicking an event
// selects its entity.

const KEEP = 300; // events kept

export class EventLog {
  constructor(list, filter, store) {
    this.list = list;
    this.filter = filter;
    this.store = store;
    this.seen = 0; // events received (the browser tests read it)
    list.addEventListener('click', (ev) => {
      const li = ev.target.closest('[data-ref]');
      if (li) store.select(li.dataset.ref);
    });
    filter.addEventListener('input', () => this.apply());
  }

  /** The names the filter asks for, or null for all. */
  names() {
    const ns = this.filter.value.split(/[\s,]+/).filter(Boolean);
    return ns.length ? new Set(ns) : null;
  }

  /** Show or hide each event for the filter. */
  apply() {
    const ns = this.names();
    for (const li of this.list.children) li.hidden = ns !== null && !ns.has(li.dataset.name);
  }

  /** An "entity-event" event. */
  add(ev) {
    this.seen++;
    const li = document.createElement('li');
    li.dataset.name = ev.name;
    li.dataset.ref = ev.ref;
    const time = document.createElement('time');
    time.textContent = `${ev.time.toFixed(2)}s`;
    const name = document.createElement('span');
    name.className = 'ev-name';
    name.textContent = ev.name;
    const who = document.createElement('span');
    who.className = 'ev-entity';
    who.textContent = ev.entity;
    li.append(time, name, who);
    if (ev.detail !== null && ev.detail !== undefined) {
      const d = document.createElement('span');
      d.className = 'ev-detail';
      d.textContent = JSON.stringify(ev.detail);
      li.append(d);
    }
    if (ev.skipped) {
      const s = document.createElement('span');
      s.className = 'ev-skipped';
      s.textContent = `(+${ev.skipped} not shown)`;
      li.append(s);
    }
    const ns = this.names();
    li.hidden = ns !== null && !ns.has(ev.name);
    this.list.prepend(li);
    while (this.list.children.length > KEEP) this.list.lastChild.remove();
  }
}
