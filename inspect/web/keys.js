// keys.js: what the page's keyboard shortcuts share.

/** Whether a key event goes to a field being typed in (shortcuts leave it alone). */
export function typing(ev) {
  const t = ev.target;
  if (!t || !t.tagName) return false;
  return t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName);
}
