// panel.js: the component panel of the selected entity (GET
// /api/entities/REF). Each component is a box of property editors made
// from its schema (GET /api/components). An edit is applied at once
// (PUT .../components/NAME with "prop: value", or the bare value of a
// single-property component); a value the parser refuses shows the
// parser's message beside the field and changes nothing. Edits applied
// are listed for "Save to file", which sends each again with ?save=1 so
// the server writes it into the scene file.

import { get, put, del, entityURL, componentURL, ApiError } from './api.js';
import { makeEditor } from './editors.js';

const REFRESH = 500; // ms between refreshes of the live values

export class Panel {
  constructor(el, store) {
    this.el = el;
    this.store = store;
    this.schemas = new Map(); // component name -> {properties, single, tag}
    this.ref = null;
    this.entity = null;
    this.editors = new Map(); // "comp\tprop" -> editor
    this.pending = new Map(); // "ref\tcomp\tprop" -> {ref, comp, body, label}
    this.seq = 0;
    store.on('select', ({ ref }) => this.show(ref));
    setInterval(() => { if (this.ref && !document.hidden) this.refresh(); }, REFRESH);
    this.show(null);
  }

  /** Fetch the component schemas (again, after a reload may have declared some). */
  async loadSchemas() {
    const r = await get('api/components');
    this.schemas = new Map(r.components.map((c) => [c.name, c]));
  }

  schema(name) {
    return this.schemas.get(name.split('__')[0]);
  }

  async show(ref) {
    this.ref = ref;
    this.entity = null;
    if (!ref) {
      this.el.replaceChildren(note('Select an entity in the tree or the view.'));
      return;
    }
    const seq = ++this.seq;
    try {
      const e = await get(entityURL(ref));
      if (seq === this.seq) this.build(e);
    } catch (err) {
      if (seq === this.seq) this.el.replaceChildren(note(err.message, 'error'));
    }
  }

  /** Update the values shown, leaving alone a field being edited or in error. */
  async refresh() {
    if (!this.ref) return;
    const seq = this.seq;
    let e;
    try {
      e = await get(entityURL(this.ref));
    } catch (err) {
      if (seq === this.seq && err instanceof ApiError && err.status === 404) {
        this.el.replaceChildren(note(`${this.ref} is gone: ${err.message}`, 'error'));
        this.ref = null;
      }
      return;
    }
    if (seq !== this.seq) return;
    const names = (c) => c.components.map((x) => x.name).join(' ');
    if (!this.entity || names(e) !== names(this.entity) || e.ref !== this.entity.ref) {
      this.build(e);
      return;
    }
    this.entity = e;
    for (const c of e.components) {
      for (const [prop, text] of propTexts(this.schema(c.name), c)) {
        const ed = this.editors.get(`${c.name}\t${prop}`);
        if (ed && !ed.busy()) ed.set(text);
      }
    }
  }

  build(e) {
    this.entity = e;
    this.editors.clear();
    const head = document.createElement('header');
    head.className = 'entity';
    const title = document.createElement('h2');
    title.textContent = e.id ? `#${e.id}` : e.ref;
    const meta = document.createElement('div');
    meta.className = 'meta';
    const bits = [e.handle];
    if (e.class && e.class.length) bits.push(e.class.map((c) => `.${c}`).join(' '));
    if (e.parent) bits.push(`in ${e.parent}`);
    if (e.children.length) bits.push(`${e.children.length} ${e.children.length === 1 ? 'child' : 'children'}`);
    meta.textContent = bits.join(' · ');
    head.append(title, meta);
    if (e.source) {
      const src = document.createElement('div');
      src.className = 'source';
      src.textContent = e.source;
      head.append(src);
    }
    head.append(this.saveBar());

    const list = document.createElement('div');
    list.className = 'components';
    for (const c of e.components) list.append(this.component(c));
    list.append(this.adder(e));
    this.el.replaceChildren(head, list);
  }

  /** The "Save to file" button and its message. */
  saveBar() {
    const bar = document.createElement('div');
    bar.className = 'savebar';
    const btn = document.createElement('button');
    btn.id = 'save';
    const msg = document.createElement('span');
    msg.className = 'save-msg';
    const update = () => {
      const n = this.pending.size;
      btn.textContent = n ? `Save ${n} ${n === 1 ? 'edit' : 'edits'} to file` : 'Save to file';
      btn.disabled = n === 0;
      btn.title = n ? [...this.pending.values()].map((p) => p.label).join('\n') : 'edits made here are saved into the scene file';
    };
    btn.addEventListener('click', async () => {
      msg.className = 'save-msg';
      msg.textContent = 'saving…';
      for (const [key, p] of this.pending) {
        try {
          await put(`${componentURL(p.ref, p.comp)}?save=1`, p.body);
          this.pending.delete(key);
        } catch (err) {
          msg.className = 'save-msg error';
          msg.textContent = err.message;
          update();
          return;
        }
      }
      msg.textContent = 'saved to the scene file';
      update();
    });
    this.updateSave = update;
    update();
    bar.append(btn, msg);
    return bar;
  }

  component(c) {
    const s = this.schema(c.name);
    const box = document.createElement('section');
    box.className = 'comp';
    box.dataset.name = c.name;
    const h = document.createElement('header');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = c.name;
    const rm = document.createElement('button');
    rm.className = 'remove';
    rm.textContent = '×';
    rm.title = `remove ${c.name}`;
    rm.addEventListener('click', async () => {
      try { await del(componentURL(this.ref, c.name)); } catch (err) { showError(box, err.message); }
    });
    h.append(name, rm);
    box.append(h);
    if (!s || s.tag || !s.properties.length) {
      box.classList.add('tag');
      return box;
    }
    const texts = new Map(propTexts(s, c));
    for (const p of s.properties) {
      const row = document.createElement('div');
      row.className = s.single ? 'prop single' : 'prop';
      row.dataset.prop = p.name;
      const label = document.createElement('label');
      label.textContent = p.name; // empty for a single-property component
      label.title = p.type;
      const err = document.createElement('div');
      err.className = 'err';
      const ed = makeEditor(p, texts.get(p.name) ?? '', (text) => this.commit(c.name, s, p, text, ed, err));
      this.editors.set(`${c.name}\t${p.name}`, ed);
      row.append(label, ed.el, err);
      box.append(row);
    }
    return box;
  }

  /** Apply an edit to the live entity; show the parser's message if refused. */
  async commit(comp, schema, prop, text, ed, err) {
    const body = schema.single ? text : `${prop.name}: ${text}`;
    const ref = this.ref;
    try {
      await put(componentURL(ref, comp), body);
      ed.error(null);
      err.textContent = '';
      const label = schema.single ? `${ref} ${comp}: ${text}` : `${ref} ${comp}.${prop.name}: ${text}`;
      this.pending.set(`${ref}\t${comp}\t${prop.name}`, { ref, comp, body, label });
      this.updateSave();
    } catch (e) {
      ed.error(e.message);
      err.textContent = e.message;
    }
  }

  /** A row to add a component: a name from the schemas and its value. */
  adder(e) {
    const form = document.createElement('form');
    form.className = 'adder';
    const sel = document.createElement('select');
    sel.append(new Option('add component…', ''));
    const have = new Set(e.components.map((c) => c.name));
    for (const name of [...this.schemas.keys()].sort()) if (!have.has(name)) sel.append(new Option(name, name));
    const value = document.createElement('input');
    value.type = 'text';
    value.placeholder = 'value, e.g. 1 2 3 or hp: 5';
    value.spellcheck = false;
    const btn = document.createElement('button');
    btn.textContent = 'Add';
    const err = document.createElement('div');
    err.className = 'err';
    form.append(sel, value, btn, err);
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      if (!sel.value) return;
      try {
        await put(componentURL(this.ref, sel.value), value.value);
        err.textContent = '';
        this.refresh();
      } catch (x) {
        err.textContent = x.message;
      }
    });
    return form;
  }
}

/** [prop name, attribute text] of each property of a component's value. */
function propTexts(schema, c) {
  if (!schema) return [];
  if (schema.single) return [[schema.properties[0].name, valueText(c.value)]];
  return schema.properties.map((p) => [p.name, valueText(c.value ? c.value[p.name] : undefined)]);
}

/** A value of the JSON dump as attribute text. */
function valueText(v) {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && !Array.isArray(v)) return ['x', 'y', 'z', 'w'].filter((k) => k in v).map((k) => String(v[k])).join(' ');
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

function note(text, cls) {
  const p = document.createElement('p');
  p.className = `note ${cls || ''}`;
  p.textContent = text;
  return p;
}

function showError(box, msg) {
  let err = box.querySelector(':scope > .err');
  if (!err) { err = document.createElement('div'); err.className = 'err'; box.append(err); }
  err.textContent = msg;
}
