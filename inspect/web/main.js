// main.js: builds the page's parts and wires them to the event stream.
// Each part lives in its own module; they share state through the store.

import { Store } from './store.js';
import { Tree } from './tree.js';
import { SelectorBox } from './selector-box.js';
import { View } from './view.js';
import { Stream } from './stream.js';
import { Panel } from './panel.js';
import { Plot } from './plots.js';
import { ReloadLog } from './reload-log.js';
import { EventLog } from './event-log.js';
import { RunControls } from './run-controls.js';
import { connectEvents } from './events.js';
import { Gizmo } from './gizmo.js';
import { History } from './history.js';
import { Structure } from './structure.js';
import { ResultsTable } from './table.js';
import { SchedulePanel } from './schedule.js';
import { Tabs } from './tabs.js';
import { SaveSetting } from './save.js';

const $ = (id) => document.getElementById(id);

const store = new Store();
const save = new SaveSetting($('save-edits'));
const tree = new Tree({ list: $('tree-list'), filter: $('tree-filter'), count: $('tree-count'), root: $('tree-root') }, store);
const selectorBox = new SelectorBox({ input: $('sel-input'), status: $('sel-status'), error: $('sel-error') }, store);
const view = new View($('view'), store);
const stream = new Stream(view, store, $('view-info'));
const panel = new Panel($('panel'), store, save);
const log = new ReloadLog($('log-list'), store);
const events = new EventLog($('events-list'), $('events-filter'), store);
const run = new RunControls({
  pause: $('pause'), play: $('play'), step: $('step'), steps: $('steps'),
  numbers: $('numbers'), message: $('run-msg'),
});
const tabs = new Tabs(document.querySelector('#tabs .tabs'), $('tabs'));
const structure = new Structure({
  add: $('add-entity'), clone: $('clone-entity'), remove: $('delete-entity'), message: $('edit-msg'),
}, store, tree, save);
const gizmo = new Gizmo(view, store, {
  buttons: { translate: $('gizmo-translate'), rotate: $('gizmo-rotate'), scale: $('gizmo-scale') },
  message: $('edit-msg'),
}, save);
view.gizmo = gizmo;
const history = new History({ undo: $('undo'), redo: $('redo'), list: $('history-list'), message: $('edit-msg') }, store);
const table = new ResultsTable({
  body: $('table-body'), head: $('table-head'), columns: $('table-columns'), status: $('table-status'),
}, store, () => tabs.current === 'results');
const schedule = new SchedulePanel($('systems'), () => tabs.current === 'systems');
// A selector typed brings its results up; cleared, the log comes back.
store.on('matches', ({ selector }) => {
  if (selector && tabs.current === 'log') tabs.show('results');
  else if (!selector && tabs.current === 'results') tabs.show('log');
});
tabs.onShow = (name) => { if (name === 'results') table.refresh(); if (name === 'systems') schedule.refresh(); };
const rate = new Plot($('plot-rate'), 'ticks/s', [{ label: '', color: '#5fb3ff' }], '', 0);
const cost = new Plot($('plot-cost'), 'ms/tick', [
  { label: 'p50', color: '#7ddc8c' }, { label: 'p99', color: '#ff8f6b' },
], ' ms', 3);

// The stream's news of a new World version (many a second in a spawning
// scene) loads the tree at most once a second; edits and reloads at once.
store.on('scene', ({ stream }) => { if (stream) tree.loadSoon(report); else tree.load().catch(report); });
$('frame').addEventListener('click', () => view.frameAll());

connectEvents({
  stats(s) {
    run.stats(s);
    stream.paused = s.paused;
    stream.load = s.load;
    const t = performance.now();
    rate.push(t, [s.ticksPerSecond]);
    cost.push(t, [s.msPerTick.p50, s.msPerTick.p99]);
  },
  reload(ev) {
    log.reload(ev);
    if (!ev.ok) return;
    // A reload may declare components, recolour or move entities.
    panel.loadSchemas().then(() => panel.refresh()).catch(report);
    stream.resync();
    store.sceneChanged();
  },
  change(ev) {
    log.change(ev);
    if (ev.run) { run.show(ev.run); stream.paused = ev.run.paused; return; }
    stream.resync();
    // Anything but a value's change may change the tree (create, destroy,
    // clone, reparent, a prefab's apply).
    if (!['set', 'remove', 'emit'].includes(ev.op)) store.sceneChanged();
    if (ev.ref === store.selected) panel.refresh();
  },
  'entity-event'(ev) { events.add(ev); },
  history(ev) {
    history.event(ev);
    if (ev.op === 'undo' || ev.op === 'redo') {
      // Whatever the command touched comes back as it was.
      stream.resync();
      store.sceneChanged();
      panel.refresh();
    }
  },
  dropped() { store.sceneChanged(); history.load(); },
}, $('conn'), () => history.load());

panel.loadSchemas().catch(report);
stream.run();
history.load();

function report(err) {
  $('run-msg').textContent = err.message;
}

// For debugging from the console and for the browser tests: the parts,
// read-only use intended.
window.inspector = {
  store, save, tree, selectorBox, view, stream, panel, log, events, run, plots: { rate, cost },
  gizmo, history, structure, table, schedule, tabs,
};
