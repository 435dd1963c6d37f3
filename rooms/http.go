package rooms

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
)

// requestHost is the Host of the requests Request and Serve make: the
// room's inspector accepts it besides its own addresses.
const requestHost = "room.scenecs"

// ServeHTTP answers the inspection API (docs/inspector.md) for the room,
// from any goroutine: the room's inspector serves it between ticks. A
// program mounts it under a prefix of its own server (with
// http.StripPrefix).
func (r *Room) ServeHTTP(w http.ResponseWriter, req *http.Request) { r.in.ServeHTTP(w, req) }

// Token returns the token the room's inspector wants on requests that
// change anything (see docs/inspector.md).
func (r *Room) Token() string { return r.in.Token() }

// Request answers one request of the inspection API without a network:
// method and target as in HTTP ("GET", "/api/query?selector=%5Bspawner%5D"),
// body the request's body (nil for none). It carries the room's token,
// so it may change the scene: whoever can call it owns the room. The
// answer is the status and body the HTTP API would give. The event and
// transform streams are not served this way (400): they never end; Serve
// serves them.
func (r *Room) Request(method, target string, body []byte) (status int, answer []byte) {
	return r.RequestContext(context.Background(), method, target, body)
}

// RequestContext is Request bounded by ctx: once ctx ends before the room
// has answered, it answers 503 (the request is skipped if the room has
// not begun it).
func (r *Room) RequestContext(ctx context.Context, method, target string, body []byte) (status int, answer []byte) {
	path, _, _ := strings.Cut(target, "?")
	if strings.HasSuffix(path, "/stream") || path == "/api/events" {
		return http.StatusBadRequest, fmt.Appendf(nil, `{"error":%q}`, "rooms: "+path+" is a stream; open it over HTTP")
	}
	rec := &recorder{h: http.Header{}}
	r.Serve(ctx, rec, method, target, body)
	if rec.status == 0 && ctx.Err() != nil {
		return http.StatusServiceUnavailable, fmt.Appendf(nil, `{"error":%q}`, fmt.Sprintf("rooms: room %s: no answer: %v", r.id, ctx.Err()))
	}
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	return rec.status, rec.body.Bytes()
}

// Serve answers one request of the inspection API into w without a
// network, streams included: as Request does (with the room's token),
// but the answer goes to w as the HTTP API writes it, flushes and all,
// and ctx is the request's context: a stream (GET /api/events, GET
// /api/transforms/stream) goes on until ctx ends, the room stops or a
// write to w fails. w may implement SetWriteDeadline (see
// http.ResponseController): the inspector then bounds each write of a
// stream, and ends a stream whose slot it takes back at once.
func (r *Room) Serve(ctx context.Context, w http.ResponseWriter, method, target string, body []byte) {
	req, err := http.NewRequestWithContext(ctx, method, "http://"+requestHost+target, bytes.NewReader(body))
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprintf(w, `{"error":%q}`, "rooms: "+err.Error())
		return
	}
	req.Header.Set("Authorization", "Bearer "+r.in.Token())
	r.in.ServeHTTP(w, req)
}

// recorder is the http.ResponseWriter Request answers into.
type recorder struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.h }

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *recorder) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(b)
}
