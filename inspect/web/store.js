// store.js: the state the parts of the page share, and the events that
// tell them it changed. Parts never call each other for these: the tree,
// the view, the panel and the selector box each listen here.
//
// Events (CustomEvent, detail as noted):
//   select   the selected entity changed ({ref, key}, ref may be null), or
//            it stayed and its reference changed ({ref, key, same: true}:
//            a path shifts when an earlier sibling goes)
//   matches  the selector's matches changed ({matches: Set, count, selector})
//   scene    the set of entities may have changed (a reload, a create or
//            destroy through the API, a new World version): refetch
//            ({stream: true} when the transform stream saw a new World
//            version, which a spawning scene makes many times a second)

/**
 * The key of an entity ({id, handle}, as GET /api/tree and GET
 * /api/entities/REF give them): "#id" for one with an id, which names
 * it across reloads; its handle otherwise, which names it while it
 * lives, wherever its path goes. Both are references the API takes.
 */
export const entityKey = (e) => (e.id ? `#${e.id}` : e.handle);

export class Store extends EventTarget {
  constructor() {
    super();
    /** The selected entity's reference (id or path), or null. */
    this.selected = null;
    /** The selected entity's key (entityKey), or null until known. */
    this.key = null;
    /** References matched by the selector box (null: no selector). */
    this.matches = null;
    /** The selector the matches are for. */
    this.selector = '';
  }

  /** Select the entity at ref (key: its key, when the caller knows it). */
  select(ref, key = null) {
    if (ref === this.selected && (!key || key === this.key)) return;
    this.selected = ref;
    this.key = ref ? key : null;
    this.dispatchEvent(new CustomEvent('select', { detail: { ref, key: this.key } }));
  }

  /** The selected entity is now at ref: the same entity, a new path. */
  follow(ref) {
    if (ref === this.selected) return;
    this.selected = ref;
    this.dispatchEvent(new CustomEvent('select', { detail: { ref, key: this.key, same: true } }));
  }

  /** Record the key of the entity selected by reference alone, once known. */
  identify(ref, key) {
    if (ref === this.selected && !this.key) this.key = key;
  }

  setMatches(selector, refs) {
    this.selector = selector;
    this.matches = refs ? new Set(refs) : null;
    const count = refs ? refs.length : 0;
    this.dispatchEvent(new CustomEvent('matches', { detail: { matches: this.matches, count, selector } }));
  }

  /** The set of entities may have changed; stream: seen in the transform stream's version. */
  sceneChanged(stream = false) {
    this.dispatchEvent(new CustomEvent('scene', { detail: { stream } }));
  }

  on(name, fn) {
    this.addEventListener(name, (ev) => fn(ev.detail || {}));
  }
}
