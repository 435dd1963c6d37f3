// events.js: the event stream (GET /api/events, Server-Sent Events).
// EventSource reconnects by itself when the stream breaks; the status
// element says whether the page is live; reopened() is called when it
// is again after a break (events may have been missed).

export function connectEvents(handlers, status, reopened) {
  const es = new EventSource('api/events');
  let opened = false; // reopened() runs on each reconnection, not the first open
  for (const [name, fn] of Object.entries(handlers)) {
    es.addEventListener(name, (ev) => fn(JSON.parse(ev.data)));
  }
  es.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'conn live';
    if (opened && reopened) reopened(); // what was missed meanwhile
    opened = true;
  });
  es.addEventListener('error', () => { status.textContent = 'reconnecting…'; status.className = 'conn down'; });
  return es;
}
