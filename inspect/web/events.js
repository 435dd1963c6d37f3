// events.js: the event stream (GET /api/events, Server-Sent Events).
// EventSource reconnects by itself when the stream breaks; the status
// element says whether the page is live.

export function connectEvents(handlers, status) {
  const es = new EventSource('api/events');
  for (const [name, fn] of Object.entries(handlers)) {
    es.addEventListener(name, (ev) => fn(JSON.parse(ev.data)));
  }
  es.addEventListener('open', () => { status.textContent = 'live'; status.className = 'conn live'; });
  es.addEventListener('error', () => { status.textContent = 'reconnecting…'; status.className = 'conn down'; });
  return es;
}
