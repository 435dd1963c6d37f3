// tabs.js: the tabs of the bottom centre (the log, the results table,
// the history, the systems): one pane shown at a time.

export class Tabs {
  /** nav holds the buttons (data-tab: a pane's id); root holds the panes. */
  constructor(nav, root) {
    this.nav = nav;
    this.root = root;
    this.current = nav.querySelector('.tab.on')?.dataset.tab || 'log';
    this.onShow = null;
    nav.addEventListener('click', (ev) => {
      const b = ev.target.closest('.tab');
      if (b) this.show(b.dataset.tab);
    });
  }

  show(name) {
    this.current = name;
    for (const b of this.nav.querySelectorAll('.tab')) b.classList.toggle('on', b.dataset.tab === name);
    for (const p of this.root.querySelectorAll(':scope > .pane')) p.hidden = p.id !== name;
    if (this.onShow) this.onShow(name);
  }
}
