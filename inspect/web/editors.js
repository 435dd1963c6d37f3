// editors.js: one editor per property, made from the property's schema
// (type, min, max, oneOf). An editor shows a value as attribute text
// ("1 2 3", "#ff8800", "true") and hands back attribute text when the
// user commits a change (Enter, leaving the field, a click for a
// checkbox, a pick for a select or colour); a vector's editor hands back
// only the axes changed, with their letters ("5", "x"), so that nothing
// but what the user typed is set (or saved). Parsing stays on the
// server: its message is shown with error().

const VECTOR_AXES = { vec2: ['x', 'y'], vec3: ['x', 'y', 'z'], vec4: ['x', 'y', 'z', 'w'] };
const NUMERIC = new Set(['number', 'int', 'time']);
const DECIMALS = 4; // numbers are shown rounded (the full value in the tooltip)

/** A number's text rounded for display; other text as it is. */
function rounded(t) {
  const v = Number(t);
  if (t.trim() === '' || !Number.isFinite(v)) return t;
  return String(Math.round(v * 10 ** DECIMALS) / 10 ** DECIMALS);
}

/**
 * makeEditor returns {el, set(text), error(msg), busy()} for a property
 * {name, type, min, max, oneOf}; commit(text, axes) is called with new
 * attribute text: the whole value (axes undefined), or for a vector the
 * values of the axes changed and their letters ("5 7", "xz").
 */
export function makeEditor(prop, text, commit) {
  let ed;
  if (prop.oneOf && prop.oneOf.length) ed = selectEditor(prop, commit);
  else if (prop.type === 'boolean') ed = boolEditor(commit);
  else if (VECTOR_AXES[prop.type]) ed = vectorEditor(VECTOR_AXES[prop.type], commit);
  else if (prop.type === 'color') ed = colorEditor(commit);
  else if (NUMERIC.has(prop.type)) ed = textEditor(commit, numberHint(prop), prop.type === 'int' ? 1 : 0.1);
  else ed = textEditor(commit, prop.type);
  ed.set(text);
  return ed;
}

function numberHint(prop) {
  const parts = [prop.type];
  if (prop.min != null) parts.push(`min ${prop.min}`);
  if (prop.max != null) parts.push(`max ${prop.max}`);
  return parts.join(', ');
}

/** A text field; with step, ArrowUp and ArrowDown add or take it away (×10 with Shift). */
function textEditor(commit, hint, step) {
  const input = field(hint, step ? 'num' : 'text');
  let shown = '';
  const send = () => { if (input.value !== shown) { shown = input.value; commit(input.value); } };
  input.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') send();
    else if (ev.key === 'Escape') { input.value = shown; clear(input); }
    else if (step && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown')) {
      const v = Number(input.value);
      if (!Number.isFinite(v)) return;
      const d = (ev.key === 'ArrowUp' ? 1 : -1) * step * (ev.shiftKey ? 10 : 1);
      input.value = String(Math.round((v + d) * 1e6) / 1e6);
      ev.preventDefault();
      send();
    }
  });
  input.addEventListener('change', send);
  return wrap([input], {
    set(t) {
      shown = step ? rounded(t) : t;
      input.value = shown;
      input.title = step && shown !== t ? `${t} (${hint})` : hint || '';
      clear(input);
    },
    busy: () => document.activeElement === input || input.classList.contains('bad'),
    inputs: [input],
  });
}

function boolEditor(commit) {
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.addEventListener('change', () => commit(box.checked ? 'true' : 'false'));
  return wrap([box], { set(t) { box.checked = t === 'true'; }, busy: () => false, inputs: [box] });
}

function selectEditor(prop, commit) {
  const sel = document.createElement('select');
  for (const v of prop.oneOf) sel.append(new Option(v, v));
  sel.addEventListener('change', () => commit(sel.value));
  return wrap([sel], { set(t) { sel.value = t; }, busy: () => document.activeElement === sel, inputs: [sel] });
}

/** One small field per axis; a change sends the axes changed ("5", "x"). */
function vectorEditor(axes, commit) {
  const inputs = axes.map((a) => field(a, 'num axis'));
  let shown = [];
  const send = () => {
    const vals = inputs.map((i) => i.value.trim());
    const changed = axes.map((_, k) => k).filter((k) => vals[k] !== (shown[k] ?? ''));
    if (!changed.length) return;
    shown = vals;
    commit(changed.map((k) => vals[k]).join(' '), changed.map((k) => axes[k]).join(''));
  };
  const els = [];
  inputs.forEach((input, k) => {
    input.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') send();
      if (ev.key === 'Escape') { input.value = shown[k] ?? ''; clear(input); }
    });
    input.addEventListener('change', send);
    const label = document.createElement('span');
    label.className = 'axis-label';
    label.textContent = axes[k];
    els.push(label, input);
  });
  return wrap(els, {
    set(t) {
      const full = t.trim().split(/\s+/);
      shown = full.map(rounded);
      inputs.forEach((i, k) => {
        i.value = shown[k] ?? '';
        i.title = `${axes[k]}: ${full[k] ?? ''}`;
        clear(i);
      });
    },
    busy: () => inputs.some((i) => document.activeElement === i || i.classList.contains('bad')),
    inputs,
  });
}

/** A colour picker beside the colour's text (which may carry alpha). */
function colorEditor(commit) {
  const pick = document.createElement('input');
  pick.type = 'color';
  const text = textEditor(commit, 'color');
  pick.addEventListener('input', () => { text.inputs[0].value = pick.value; });
  pick.addEventListener('change', () => commit(pick.value));
  return wrap([pick, ...text.el.childNodes], {
    set(t) {
      text.set(t);
      if (/^#[0-9a-f]{6}/i.test(t)) pick.value = t.slice(0, 7);
    },
    busy: () => text.busy(),
    inputs: [pick, ...text.inputs],
  });
}

function field(placeholder, cls) {
  const input = document.createElement('input');
  input.type = 'text';
  input.spellcheck = false;
  input.className = cls;
  input.placeholder = placeholder || '';
  input.title = placeholder || '';
  return input;
}

function clear(input) { input.classList.remove('bad'); }

/** Put an editor's elements in one box and add error(). */
function wrap(els, ed) {
  const el = document.createElement('div');
  el.className = 'editor';
  el.append(...els);
  ed.el = el;
  ed.error = (msg) => {
    for (const i of ed.inputs) i.classList.toggle('bad', !!msg);
  };
  return ed;
}
