// keyed.js: lists updated in place. The tree's rows and the panel's
// components change while the user points at them (the cube scene
// spawns and expires entities many times a second). Re-creating the DOM
// nodes would drop a click aimed at one, its hover and any focus inside
// it; instead each list keeps one node per item (per entity, per
// component), and place() puts those nodes in order under their parent,
// moving as few as it can: a moved node is taken out of the document and
// put back, which loses the hover and focus of what is inside it.

/**
 * place makes parent's element children exactly nodes, in that order.
 * Children not in nodes are removed and nodes not yet in parent are
 * inserted. Of the nodes already in parent, the longest run already in
 * the right order stays where it is; only the others move.
 */
export function place(parent, nodes) {
  const at = new Map(nodes.map((n, i) => [n, i]));
  for (const c of [...parent.children]) if (!at.has(c)) c.remove();
  const stay = new Set(longestRun([...parent.children], at));
  let next = null;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i];
    if (!stay.has(n) && (n.parentNode !== parent || n.nextElementSibling !== next)) parent.insertBefore(n, next);
    next = n;
  }
}

/**
 * The longest subsequence of nodes (in their current order) whose
 * wanted positions (at) increase: those need not move.
 */
function longestRun(nodes, at) {
  const ends = []; // ends[k]: the node ending the best run of length k+1 found so far
  const before = new Array(nodes.length); // the node before nodes[i] in its run
  for (let i = 0; i < nodes.length; i++) {
    const v = at.get(nodes[i]);
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at.get(nodes[ends[mid]]) < v) lo = mid + 1; else hi = mid;
    }
    before[i] = lo > 0 ? ends[lo - 1] : -1;
    ends[lo] = i;
  }
  const run = [];
  for (let i = ends.length ? ends[ends.length - 1] : -1; i >= 0; i = before[i]) run.push(nodes[i]);
  return run;
}

/** Set obj[prop] to v unless it is already v (a DOM write may cost a layout or replace a text node). */
export function put(obj, prop, v) {
  if (obj[prop] !== v) obj[prop] = v;
}
