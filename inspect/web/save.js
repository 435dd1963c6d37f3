// save.js: the page's one save setting, "save to file" in the top bar.
// While it is ticked, every change the page makes (an edit in the
// panel, a component added or removed there, a gizmo's drag, add,
// clone, delete, a move in the tree) is sent with ?save=1, so that the
// server writes it into the scene file or refuses it saying why (and
// then changes nothing).

export class SaveSetting {
  constructor(box) {
    this.box = box;
    this.listeners = [];
    box.addEventListener('change', () => { for (const f of this.listeners) f(this.on); });
  }

  /** Whether changes are saved into the scene file. */
  get on() { return this.box.checked; }

  /** The query of a change's request: "?save=1" while on. */
  query() { return this.on ? '?save=1' : ''; }

  /** Call f(on) whenever the setting changes. */
  onChange(f) { this.listeners.push(f); }
}
