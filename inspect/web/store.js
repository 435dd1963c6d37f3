// store.js: the state the parts of the page share, and the events that
// tell them it changed. Parts never call each other for these: the tree,
// the view, the panel and the selector box each listen here.
//
// Events (CustomEvent, detail as noted):
//   select   the selected entity's reference changed ({ref}, ref may be null)
//   matches  the selector's matches changed ({matches: Set, count, selector})
//   scene    the set of entities may have changed (a reload, a create or
//            destroy through the API, a new World version): refetch

export class Store extends EventTarget {
  constructor() {
    super();
    /** The selected entity's reference, or null. */
    this.selected = null;
    /** References matched by the selector box (null: no selector). */
    this.matches = null;
    /** The selector the matches are for. */
    this.selector = '';
  }

  select(ref) {
    if (ref === this.selected) return;
    this.selected = ref;
    this.dispatchEvent(new CustomEvent('select', { detail: { ref } }));
  }

  setMatches(selector, refs) {
    this.selector = selector;
    this.matches = refs ? new Set(refs) : null;
    const count = refs ? refs.length : 0;
    this.dispatchEvent(new CustomEvent('matches', { detail: { matches: this.matches, count, selector } }));
  }

  sceneChanged() {
    this.dispatchEvent(new CustomEvent('scene'));
  }

  on(name, fn) {
    this.addEventListener(name, (ev) => fn(ev.detail || {}));
  }
}
