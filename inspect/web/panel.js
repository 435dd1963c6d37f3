// panel.js: the component panel of the selected entity (GET
// /api/entities/REF). Each component is a box of property editors made
// from its schema (GET /api/components). An edit is applied at once
// (PUT .../components/NAME with "prop: value", or the bare value of a
// single-property component; for a vector, NAME.x or NAME.prop.x with
// the values of the axes changed alone); a value the parser refuses
// shows the parser's message beside the field and changes nothing. With
// the page's one save setting on ("save to file", save.js), every edit,
// component added and component removed carries ?save=1: the server
// writes what was edited (that property, those axes) into the scene
// file, or refuses it saying why. A behaviour box on top shows
// the entity's running animations, timers, handlers and bindings, and
// sends it events (behaviour.js).

import { get, put, del, entityURL, componentURL, ApiError } from './api.js';
import { makeEditor } from './editors.js';
import { entityKey } from './store.js';
import { place, put as assign } from './keyed.js';
import { BehaviourBox } from './behaviour.js';

const REFRESH = 500; // ms between refreshes of the live values

export class Panel {
  constructor(el, store, save) {
    this.el = el;
    this.store = store;
    this.save = save;
    this.schemas = new Map(); // component name -> {properties, single, tag, readOnly}
    this.ref = null; // the entity shown, by reference (id or path)
    this.key = null; // and by key (entityKey): what the panel asks the API for
    this.entity = null;
    this.parts = null; // the entity's header, component list and adder (build)
    this.boxes = new Map(); // component name -> {el, sig, editors: Map prop -> editor}
    this.seq = 0; // a new entity shown: answers for the one before are dropped
    this.asked = 0; // entity requests made (refreshes included)
    this.applied = 0; // the newest request whose answer is shown
    this.schemaLoads = 0; // GET /api/components answers taken
    store.on('select', ({ ref, key, same }) => (same ? this.moved(ref) : this.show(ref, key)));
    save.onChange(() => { if (this.parts) this.noteSave(this.parts.saveNote); });
    setInterval(() => { if (this.ref && !document.hidden) this.refresh(); }, REFRESH);
    this.show(null);
  }

  /** Fetch the component schemas (again, after a reload may have declared some). */
  async loadSchemas() {
    const r = await get('api/components');
    this.schemas = new Map(r.components.map((c) => [c.name, c]));
    this.schemaLoads++;
  }

  schema(name) {
    return this.schemas.get(name.split('__')[0]);
  }

  /** The reference the API is asked with: the key once known. */
  target() {
    return this.key || this.ref;
  }

  /** GET the entity shown; null when a newer answer was shown already. */
  async fetch() {
    const n = ++this.asked;
    const e = await get(entityURL(this.target()));
    if (n < this.applied) return null;
    this.applied = n;
    return e;
  }

  /** Show the entity at ref (key: its key, when known). */
  async show(ref, key) {
    this.ref = ref;
    this.key = key || null;
    this.entity = null;
    this.parts = null;
    this.boxes = new Map();
    this.seq++;
    if (!ref) {
      this.el.replaceChildren(note('Select an entity in the tree or the view.'));
      return;
    }
    await this.refresh();
  }

  /** The entity shown is now at ref (its path shifted). */
  moved(ref) {
    this.ref = ref;
    this.refresh();
  }

  /**
   * Fetch the entity again and show it: built at the first answer, then
   * updated in place, leaving alone a field being edited or in error.
   */
  async refresh() {
    if (!this.ref) return;
    const seq = this.seq;
    let e;
    try {
      e = await this.fetch();
    } catch (err) {
      if (seq !== this.seq) return;
      if (err instanceof ApiError && err.status === 404) this.gone(err.message);
      else if (!this.parts) this.el.replaceChildren(note(err.message, 'error'));
      return;
    }
    if (seq !== this.seq || !e || !this.ref) return;
    if (this.key && entityKey(e) !== this.key) {
      this.gone(`${this.key} names another entity now`);
    } else if (this.parts) {
      this.update(e);
    } else {
      this.key = entityKey(e);
      this.store.identify(this.ref, this.key);
      this.build(e);
    }
  }

  /** The entity shown is gone: say so, and stop refreshing. */
  gone(why) {
    this.el.replaceChildren(note(`${this.ref} is gone: ${why}`, 'error'));
    this.ref = null;
    this.parts = null;
  }

  /** Make the header, the component list and the adder of a newly shown entity. */
  build(e) {
    const head = document.createElement('header');
    head.className = 'entity';
    const title = document.createElement('h2');
    const meta = document.createElement('div');
    meta.className = 'meta';
    const source = document.createElement('div');
    source.className = 'source';
    const saveNote = document.createElement('div');
    saveNote.className = 'save-note';
    this.noteSave(saveNote);
    head.append(title, meta, source, saveNote);
    const list = document.createElement('div');
    list.className = 'components';
    this.parts = { title, meta, source, saveNote, list, adder: this.adder(), behaviour: new BehaviourBox(() => this.target()) };
    this.update(e);
    this.el.replaceChildren(head, list);
  }

  /**
   * Show e: the header's text, then the components, keyed by name: the
   * box of a component that stays is kept (its editors only take the
   * new values), a new one gets a box, a gone one loses its own.
   */
  update(e) {
    this.entity = e;
    const { title, meta, source, list, adder, behaviour } = this.parts;
    behaviour.update(e.behaviour);
    assign(title, 'textContent', e.id ? `#${e.id}` : e.ref);
    const bits = [e.handle];
    if (e.class && e.class.length) bits.push(e.class.map((c) => `.${c}`).join(' '));
    if (e.parent) bits.push(`in ${e.parent}`);
    if (e.children.length) bits.push(`${e.children.length} ${e.children.length === 1 ? 'child' : 'children'}`);
    assign(meta, 'textContent', bits.join(' · '));
    assign(source, 'textContent', e.source || '');
    assign(source, 'hidden', !e.source);

    const boxes = new Map();
    for (const c of e.components) {
      const s = this.schema(c.name);
      const sig = JSON.stringify(s || null);
      let b = this.boxes.get(c.name);
      if (b && b.sig === sig) {
        for (const [prop, text] of propTexts(s, c)) {
          const ed = b.editors.get(prop);
          if (ed && !ed.busy()) ed.set(text);
        }
      } else {
        b = this.component(c, s, sig); // new, or its schema changed (a reload)
      }
      boxes.set(c.name, b);
    }
    this.boxes = boxes;
    place(list, [behaviour.el, ...[...boxes.values()].map((b) => b.el), adder.form]);
    adder.offer(new Set(e.components.map((c) => c.name)));
  }

  /** Say in el where the edits go: the top bar's "save to file". */
  noteSave(el) {
    const on = this.save.on;
    el.classList.toggle('on', on);
    assign(el, 'textContent', on ? 'Edits here are saved into the scene file.' : 'Edits here change the running scene only ("save to file" is off).');
  }

  /** A component's box (c: its value, s: its schema, sig: the schema as text). */
  component(c, s, sig) {
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
      try { await del(`${componentURL(this.target(), c.name)}${this.save.query()}`); } catch (err) { showError(box, err.message); }
    });
    h.append(name, rm);
    box.append(h);
    const editors = new Map();
    if (!s || s.tag || !s.properties.length) {
      box.classList.add('tag');
      return { el: box, sig, editors };
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
      const ed = makeEditor(p, texts.get(p.name) ?? '', (text, axes) => this.commit(c.name, s, p, text, axes, ed, err));
      editors.set(p.name, ed);
      row.append(label, ed.el, err);
      box.append(row);
    }
    return { el: box, sig, editors };
  }

  /**
   * Apply an edit to the live entity (and, with the save setting on, to
   * the file): the property's text, or the values of a vector's axes
   * (axes: their letters); show the parser's (or the save's) refusal.
   */
  async commit(comp, schema, prop, text, axes, ed, err) {
    let path = comp;
    let body = schema.single ? text : `${prop.name}: ${text}`;
    if (axes) {
      path = schema.single ? `${comp}.${axes}` : `${comp}.${prop.name}.${axes}`;
      body = text;
    }
    try {
      await put(`${componentURL(this.target(), path)}${this.save.query()}`, body);
      ed.error(null);
      err.textContent = '';
    } catch (e) {
      ed.error(e.message);
      err.textContent = e.message;
    }
  }

  /**
   * The row that adds a component: a name and its value. offer(have)
   * lists the components the entity lacks, but not the read-only ones
   * (world, prefab: the API refuses to set them), keeping the option
   * elements and the name picked.
   */
  adder() {
    const form = document.createElement('form');
    form.className = 'adder';
    const sel = document.createElement('select');
    const none = new Option('add component…', '');
    sel.append(none);
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
        await put(`${componentURL(this.target(), sel.value)}${this.save.query()}`, value.value);
        err.textContent = '';
        this.refresh();
      } catch (x) {
        err.textContent = x.message;
      }
    });
    const offer = (have) => {
      const names = [...this.schemas.values()].filter((c) => !c.readOnly && !have.has(c.name)).map((c) => c.name).sort();
      const old = new Map([...sel.options].map((o) => [o.value, o]));
      const picked = sel.value;
      place(sel, [none, ...names.map((n) => old.get(n) || new Option(n, n))]);
      assign(sel, 'value', names.includes(picked) ? picked : '');
    };
    return { form, offer };
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
