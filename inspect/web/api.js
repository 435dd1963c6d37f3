// api.js: the inspection API (docs/inspector.md) over fetch.
//
// Reads need no token. Changes carry the run's token, which the page
// takes from its own address (/?token=...) and sends as a Bearer header.

const token = new URLSearchParams(location.search).get('token') || '';

/** An answer other than 2xx: status and the API's JSON error body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function request(method, path, body, signal) {
  const headers = {};
  if (method !== 'GET') headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body, signal, cache: 'no-store' });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: text }; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** GET a JSON answer. */
export const get = (path, signal) => request('GET', path, undefined, signal);
/** PUT a text body (an attribute string). */
export const put = (path, text) => request('PUT', path, text);
/** POST, with no body (pause, play, step) or a text one (an event's JSON detail). */
export const post = (path, body) => request('POST', path, body);
/** DELETE. */
export const del = (path) => request('DELETE', path);

/**
 * GET a packed binary answer (/api/transforms, /api/colors): the body
 * and the 16-byte header read out (count, stride, World version).
 */
export async function getPacked(path, signal) {
  const res = await fetch(path, { cache: 'no-store', signal });
  if (!res.ok) {
    let body = {};
    try { body = await res.json(); } catch { /* not JSON */ }
    throw new ApiError(res.status, body);
  }
  const buf = await res.arrayBuffer();
  const head = new DataView(buf, 0, 16);
  return {
    buffer: buf,
    count: head.getUint32(0, true),
    stride: head.getUint32(4, true),
    // The version is a uint64; no scene comes near 2^53 changes.
    version: Number(head.getBigUint64(8, true)),
    layout: res.headers.get('X-Layout') || '',
  };
}

/** The URL path of an entity (REF may be a path such as ship/0). */
export const entityURL = (ref) => `api/entities/${encodeURIComponent(ref)}`;

/** The URL path of one component of an entity. */
export const componentURL = (ref, name) =>
  `${entityURL(ref)}/components/${encodeURIComponent(name)}`;
