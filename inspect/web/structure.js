// structure.js: the scene's structure edited from the page. Add makes a
// new root entity at the origin (POST /api/entities), Clone copies the
// selected entity and its subtree (POST .../clone), Delete destroys it
// and its subtree (DELETE), and dragging a row of the tree onto another
// makes it that entity's child (PUT .../parent; dropped on the tree's
// root strip or below the rows, a root). Each is one command of the
// history. With "save to file" on (save.js), each request carries
// ?save=1, so the server writes the change into the scene file, or
// refuses it saying why. A new entity gets an id, entity-N, the server
// picking the smallest N free in the World and the scene's files, so
// that a reload matches it by id. A server without an endpoint (404, 405
// or 501) disables its button, saying so in its title.

import { post, put as putText, del, entityURL, ApiError } from './api.js';
import { entityKey } from './store.js';

/**
 * Whether an error says the server lacks the endpoint (not that the
 * request was wrong). A 501 to a request with ?save=1 says the server
 * cannot save that change, not that it lacks the endpoint.
 */
function missing(err, saving) {
  if (!(err instanceof ApiError)) return false;
  return err.status === 405 || (err.status === 501 && !saving) || (err.status === 404 && /no endpoint/.test(err.message));
}

export class Structure {
  constructor({ add, clone, remove, message }, store, tree, save) {
    this.buttons = { add, clone, remove };
    this.save = save;
    this.message = message;
    this.store = store;
    this.tree = tree;
    this.unsupported = {}; // button name -> why
    this.done = 0; // requests answered 2xx (the browser tests read it)
    this.lastMove = null; // the last reparenting asked for: {child key, parent ref or null}
    add.addEventListener('click', () => this.add());
    clone.addEventListener('click', () => this.clone());
    remove.addEventListener('click', () => this.remove());
    tree.onDrop = (child, parent) => this.reparent(child, parent);
    store.on('select', () => this.render());
    this.render();
  }

  query() {
    return this.save.query();
  }

  render() {
    const sel = this.store.selected;
    const why = this.unsupported;
    const set = (name, enabled, title) => {
      const b = this.buttons[name];
      b.disabled = !!why[name] || !enabled;
      b.title = why[name] || title;
    };
    set('add', true, 'add a new entity at the root, at the origin');
    set('clone', !!sel, sel ? `clone ${sel} and its children` : 'select an entity to clone');
    set('remove', !!sel, sel ? `delete ${sel} and its children` : 'select an entity to delete');
  }

  /** Run a request for button name; a 2xx answer goes to then(). */
  async run(name, label, request, then) {
    try {
      const r = await request();
      this.done++;
      this.message.textContent = '';
      this.message.className = 'edit-msg';
      if (then) then(r);
    } catch (err) {
      const why = missing(err, this.save.on) ? `${label} needs a newer server (it answered ${err.status}: ${err.message})` : '';
      if (why && name) {
        this.unsupported[name] = why;
        this.render();
      }
      this.message.className = 'edit-msg error';
      this.message.textContent = why || `${label}: ${err.message}`;
    }
  }

  add() {
    const body = JSON.stringify({ idBase: 'entity', components: { position: '0 0 0' } });
    return this.run('add', 'add', () => post(`api/entities${this.query()}`, body), (e) => this.store.select(e.ref, entityKey(e)));
  }

  clone() {
    const target = this.store.key || this.store.selected;
    if (!target) return undefined;
    return this.run('clone', 'clone', () => post(`${entityURL(target)}/clone${this.query()}`, ''), (e) => this.store.select(e.ref, entityKey(e)));
  }

  remove() {
    const target = this.store.key || this.store.selected;
    if (!target) return undefined;
    return this.run('remove', 'delete', () => del(`${entityURL(target)}${this.query()}`), () => this.store.select(null));
  }

  /** Make the entity child (a key) a child of parent (a reference), or a root (null). */
  reparent(child, parent) {
    this.lastMove = { child, parent }; // the browser tests read it
    return this.run(null, 'move', () => putText(`${entityURL(child)}/parent${this.query()}`, parent || ''), () => this.tree.load());
  }
}
