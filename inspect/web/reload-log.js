// reload-log.js: the log of hot reloads and changes, newest first. A
// reload shows its summary and its per-entity, per-property diff
// (~ #wreck position 0 15 0 → 4 15 0), a failed one its errors
// (file:line:col: message); a change made through the API shows the same
// lines. Clicking an entity's line selects it.

const KEEP = 200; // entries kept
const LINES = 50; // diff lines shown per entry

export class ReloadLog {
  constructor(list, store) {
    this.list = list;
    this.store = store;
    list.addEventListener('click', (ev) => {
      const line = ev.target.closest('[data-ref]');
      if (line) store.select(line.dataset.ref);
    });
  }

  /** A "reload" event. */
  reload(ev) {
    const kind = ev.ok ? 'reload' : 'failed';
    const head = ev.ok ? `reload ${ev.summary || ''}` : 'reload failed: the running scene is unchanged';
    const lines = [];
    for (const e of ev.entries || []) lines.push(entryLine(e));
    if (ev.more) lines.push({ text: `… and ${ev.more} more` });
    for (const w of ev.warnings || []) lines.push({ text: `warning: ${w}`, cls: 'warn' });
    for (const e of ev.errors || []) lines.push({ text: e, cls: 'error' });
    this.add(kind, head, lines);
  }

  /** A "change" event (an edit through the API, or pause, play, step). */
  change(ev) {
    if (ev.run) {
      this.add('run', `${ev.op}${ev.op === 'step' ? ` (${ev.run.steps} to go)` : ''} at tick ${ev.run.ticks}`, []);
      return;
    }
    const lines = (ev.entries || []).map(entryLine);
    if (ev.op === 'emit') {
      for (const e of ev.errors || []) lines.push({ text: e, cls: 'error' });
      this.add('edit', `emit ${ev.event} on ${ev.entity}`, lines);
      return;
    }
    const what = ev.component ? `${ev.entity} ${ev.component}` : ev.entity;
    this.add('edit', `${ev.op} ${what}${ev.saved ? ' · saved to file' : ''}`, lines);
  }

  add(kind, head, lines) {
    const li = document.createElement('li');
    li.className = kind;
    const time = document.createElement('time');
    time.textContent = new Date().toLocaleTimeString('en-GB');
    const h = document.createElement('span');
    h.className = 'head';
    h.textContent = head;
    li.append(time, h);
    for (const l of lines.slice(0, LINES)) {
      const d = document.createElement('div');
      d.className = `line ${l.cls || ''}`;
      d.textContent = l.text;
      if (l.ref) d.dataset.ref = l.ref;
      li.append(d);
    }
    if (lines.length > LINES) {
      const d = document.createElement('div');
      d.className = 'line';
      d.textContent = `… ${lines.length - LINES} more lines`;
      li.append(d);
    }
    this.list.prepend(li);
    while (this.list.children.length > KEEP) this.list.lastChild.remove();
  }
}

/** An entry as loader.DiffEntry.String prints it. */
function entryLine(e) {
  const shown = (s) => (s === '' || s === undefined ? '""' : s);
  const prop = e.property ? `${e.component}.${e.property}` : e.component;
  // Entities are labelled "#id" or by path; dropping the # gives the reference.
  const ref = e.entity ? e.entity.replace(/^#/, '') : undefined;
  switch (e.kind) {
    case 'created': return { text: `+ ${e.entity}`, ref, cls: 'add' };
    case 'destroyed': return { text: `- ${e.entity}`, cls: 'del' };
    case 'moved': return { text: `> ${e.entity}`, ref };
    case 'added': return { text: `~ ${e.entity} +${e.component}${e.new ? ` ${e.new}` : ''}`, ref, cls: 'add' };
    case 'removed': return { text: `~ ${e.entity} -${e.component}`, ref, cls: 'del' };
    case 'changed': return { text: `~ ${e.entity} ${prop} ${shown(e.old)} → ${shown(e.new)}`, ref };
    case 'class': return { text: `~ ${e.entity} class ${shown(e.old)} → ${shown(e.new)}`, ref };
    case 'system': return { text: `~ scene ${prop} ${shown(e.old)} → ${shown(e.new)}` };
    case 'declaration': return { text: `~ components ${e.component} (${e.new})` };
    case 'mixin': return { text: `~ mixin ${e.component} (${e.new})` };
    default: return { text: `? ${e.entity || ''}` };
  }
}
