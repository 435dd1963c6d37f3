// event-log.js: the entity events as they fire ("entity-event" on the
// event stream), newest first. The server sends at most a burst of each
// event name at once, then a few a second, and says how many it left
// out; the filter shows only the events whose name matches (a name, or
// several separated by commas or spaces; empty: all). Clicking an event
// selects its entity.

const KEEP = 300; // events kept
const BATCH = 200; // ms: events received meanwhile go on the page together
const FLOOD = 10; // events in a batch that make the next one wait longer
const FLOOD_BATCH = 1000; // ms: the wait while events keep flooding in

export class EventLog {
  constructor(list, filter, store) {
    this.list = list;
    this.filter = filter;
    this.store = store;
    this.seen = 0; // events received (the browser tests read it)
    this.pending = []; // received, not on the page yet (newest last)
    this.timer = 0;
    this.flooded = false; // the last batch was a flood
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

  /**
   * An "entity-event" event. Events are put on the page in batches, a
   * few times a second: a scene can fire hundreds a second (cubes
   * landing), and a change of the list for each one kept the page busy
   * laying itself out again. While they flood in (the last batch had
   * FLOOD or more), a batch a second: each change of the list costs the
   * browser about as much however many events it brings (two pages on
   * the spawning cube scene spent a tenth of a core on five a second),
   * and a list scrolling faster than it can be read shows no more.
   */
  add(ev) {
    this.seen++;
    this.pending.push(ev);
    if (this.pending.length > KEEP) this.pending.splice(0, this.pending.length - KEEP);
    if (!this.timer) this.timer = setTimeout(() => this.flush(), this.flooded ? FLOOD_BATCH : BATCH);
  }

  /** Put the events received since the last batch on the page. */
  flush() {
    this.timer = 0;
    this.flooded = this.pending.length >= FLOOD;
    const ns = this.names();
    const batch = document.createDocumentFragment();
    for (let i = this.pending.length - 1; i >= 0; i--) batch.append(this.item(this.pending[i], ns));
    this.pending = [];
    this.list.prepend(batch);
    while (this.list.children.length > KEEP) this.list.lastChild.remove();
  }

  /** The list item of one event, hidden if the filter leaves it out. */
  item(ev, ns) {
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
    li.hidden = ns !== null && !ns.has(ev.name);
    return li;
  }
}
