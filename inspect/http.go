package inspect

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/scenecs/scenecs/editor"
)

// ServeHTTP answers one request: see docs/inspector.md for the endpoints.
// Every request is checked first: its Host must be the server's own and
// its Origin, if any, too (403). Then it is routed (route): a path no
// endpoint has is a 404, a method the endpoint does not take a 405; and
// an endpoint is served only after the token check of a request that
// may change anything (any method but GET: 401 without it). Every route
// goes through here, so no endpoint, one added later included, can skip
// the checks.
//
// A request answered before its body was read (a refusal) is answered at
// once with Connection: close, and its connection closed
// Timeouts.UnreadBody later (see bodyGuard).
func (in *Inspector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = guardBody(w, r, in.timeouts.UnreadBody)
	if !in.hostOK(r, r.Host, r.TLS != nil) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("inspect: host %q is not this server's own (use its address, localhost or 127.0.0.1 with its port, or add the name to Options.Hosts)", r.Host))
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !in.originOK(r, o) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("inspect: cross-origin request from %q refused", o))
		return
	}
	h, isEndpoint := in.route(r)
	if isEndpoint && r.Method != http.MethodGet && !in.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="scenecs inspector"`)
		writeError(w, http.StatusUnauthorized, "inspect: this request changes the scene: it needs the run's token (Authorization: Bearer TOKEN, or ?token=TOKEN)")
		return
	}
	h(w, r)
}

// endpoint is a handler that answers a request; the other handlers
// route finds refuse it (404, 405, a bad entity path).
type endpoint http.HandlerFunc

func (h endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) { h(w, r) }

// router finds what answers a request under its pattern, and whether it
// is an endpoint: entity paths, whose references may hold "/"
// (entityRoute), and the page's files (fileRoute).
type router func(r *http.Request) (http.HandlerFunc, bool)

func (f router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, _ := f(r)
	h(w, r)
}

// route finds what answers r, and whether it is an endpoint.
func (in *Inspector) route(r *http.Request) (http.HandlerFunc, bool) {
	switch h, _ := in.mux.Handler(r); h := h.(type) {
	case endpoint:
		return http.HandlerFunc(h), true
	case router:
		return h(r)
	default:
		return h.ServeHTTP, false
	}
}

// routes returns the endpoints on a ServeMux, by method and path. A
// path answers a method it does not take with 405 and the methods it
// does (Allow), a HEAD too when it takes GET alone. Everything under
// /api/entities/ goes to entityRoute, which cuts the path itself (a
// reference may span segments: ship/0); a path no pattern matches is
// one of the page's files (fileRoute), or a 404.
func (in *Inspector) routes() *http.ServeMux {
	mux := http.NewServeMux()
	allow := map[string][]string{}
	handle := func(pattern string, h http.HandlerFunc) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.Handle(pattern, endpoint(h))
		allow[path] = append(allow[path], method)
	}
	handle("GET /{$}", index)
	handle("GET /api/scene", in.getScene)
	handle("GET /api/query", in.getQuery)
	handle("GET /api/components", in.getComponents)
	handle("GET /api/stats", func(w http.ResponseWriter, r *http.Request) { writeJSON(w, http.StatusOK, in.Stats()) })
	handle("GET /api/events", in.events)
	handle("GET /api/transforms", in.getTransforms)
	handle("GET /api/transforms/stream", in.getTransformStream)
	handle("GET /api/colors", in.getColors)
	handle("GET /api/table", in.getTable)
	handle("GET /api/tree", in.getTree)
	handle("POST /api/pause", in.postPause)
	handle("POST /api/play", in.postPlay)
	handle("POST /api/step", in.postStep)
	handle("GET /api/history", in.getHistory)
	handle("POST /api/undo", func(w http.ResponseWriter, r *http.Request) { in.edit(w, r, editor.Undo{}) })
	handle("POST /api/redo", func(w http.ResponseWriter, r *http.Request) { in.edit(w, r, editor.Redo{}) })
	handle("GET /api/schedule", in.getSchedule)
	for _, op := range []string{"enable", "disable", "step"} {
		handle("POST /api/schedule/"+op, func(w http.ResponseWriter, r *http.Request) { in.postSchedule(w, r, op) })
	}
	handle("POST /api/entities", in.postEntity)
	mux.Handle("/api/entities/{rest...}", router(in.entityRoute))
	for path, methods := range allow {
		mux.Handle(path, notAllowed(methods))
		if len(methods) == 1 && methods[0] == http.MethodGet {
			mux.Handle("HEAD "+path, notAllowed(methods))
		}
	}
	mux.Handle("/", router(fileRoute))
	return mux
}

// notAllowed answers a method the path does not take: 405, with the
// methods it takes.
func notAllowed(methods []string) http.HandlerFunc {
	allow := strings.Join(slices.Sorted(slices.Values(methods)), ", ")
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Allow", allow)
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("inspect: %s does not take %s (allowed: %s)", r.URL.Path, r.Method, allow))
	}
}

// handlers are an endpoint's handlers by method.
type handlers map[string]http.HandlerFunc

// byMethod returns hs's handler of r's method, an endpoint, or the 405
// of a method the endpoint does not take.
func byMethod(r *http.Request, hs handlers) (http.HandlerFunc, bool) {
	if h, ok := hs[r.Method]; ok {
		return h, true
	}
	return notAllowed(slices.Collect(maps.Keys(hs))), false
}

// refuse returns a handler that answers status and msg.
func refuse(status int, msg string) (http.HandlerFunc, bool) {
	return func(w http.ResponseWriter, r *http.Request) { writeError(w, status, msg) }, false
}

// entityRoute routes /api/entities/REF and what is under it, REF
// unescaped from the escaped path, which it may span ("ship/0"):
// REF/events/NAME, REF/prefab/ACTION, REF/clone, REF/parent,
// REF/components/NAME and REF itself, tried in that order, each cut at
// the last place its suffix appears.
func (in *Inspector) entityRoute(r *http.Request) (http.HandlerFunc, bool) {
	if ref, name, ok := splitEventPath(strings.TrimPrefix(r.URL.EscapedPath(), "/api/entities/")); ok {
		ref, err1 := url.PathUnescape(ref)
		name, err2 := url.PathUnescape(name)
		if err1 != nil || err2 != nil || ref == "" || strings.Contains(name, "/") {
			return refuse(http.StatusBadRequest, fmt.Sprintf("inspect: bad event path %q", r.URL.EscapedPath()))
		}
		return byMethod(r, handlers{"POST": func(w http.ResponseWriter, r *http.Request) { in.postEvent(w, r, ref, name) }})
	}
	if ref, action, ok := splitPrefabPath(r.URL); ok {
		return byMethod(r, handlers{"POST": func(w http.ResponseWriter, r *http.Request) { in.postPrefab(w, r, ref, action) }})
	}
	if ref, action, ok := splitActionPath(r.URL); ok {
		if action == "clone" {
			return byMethod(r, handlers{"POST": func(w http.ResponseWriter, r *http.Request) { in.postClone(w, r, ref) }})
		}
		return byMethod(r, handlers{"PUT": func(w http.ResponseWriter, r *http.Request) { in.putParent(w, r, ref) }})
	}
	ref, comp, ok := splitEntityPath(r.URL)
	switch {
	case !ok:
		return refuse(http.StatusBadRequest, fmt.Sprintf("inspect: bad entity path %q", r.URL.EscapedPath()))
	case comp != "":
		return byMethod(r, handlers{
			"PUT":    func(w http.ResponseWriter, r *http.Request) { in.putComponent(w, r, ref, comp) },
			"DELETE": func(w http.ResponseWriter, r *http.Request) { in.deleteComponent(w, r, ref, comp) },
		})
	}
	return byMethod(r, handlers{
		"GET":    func(w http.ResponseWriter, r *http.Request) { in.getEntity(w, r, ref) },
		"DELETE": func(w http.ResponseWriter, r *http.Request) { in.deleteEntity(w, r, ref) },
	})
}

// authorized reports whether r carries the token.
func (in *Inspector) authorized(r *http.Request) bool {
	got := ""
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, tok, ok := strings.Cut(a, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		got = strings.TrimSpace(tok)
	} else {
		got = r.URL.Query().Get("token")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(in.token)) == 1
}

// hostOK reports whether host (a Host header, or an Origin's host) names
// this server: one of Options.Hosts, the name a Listen address was given
// by, or, with the port the request came in on, a loopback name or the
// local address itself. A DNS-rebinding page reaches the server under its
// own name, which is none of these.
func (in *Inspector) hostOK(r *http.Request, host string, tls bool) bool {
	if host == "" {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		h, port = host, "80"
		if tls {
			port = "443"
		}
	}
	h = strings.ToLower(strings.TrimSuffix(strings.Trim(h, "[]"), "."))
	for _, a := range in.opt.Hosts {
		a = strings.ToLower(a)
		if ah, ap, err := net.SplitHostPort(a); err == nil {
			if strings.Trim(ah, "[]") == h && ap == port {
				return true
			}
		} else if strings.Trim(a, "[]") == h {
			return true
		}
	}
	hp := net.JoinHostPort(h, port)
	in.mu.Lock()
	for _, a := range in.listenHosts {
		if a == hp {
			in.mu.Unlock()
			return true
		}
	}
	in.mu.Unlock()
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	lh, lp, err := net.SplitHostPort(local.String())
	if err != nil || lp != port {
		return false
	}
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && (ip.IsLoopback() || ip.Equal(net.ParseIP(lh)))
}

// originOK reports whether an Origin header names this server.
func (in *Inspector) originOK(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" && u.Path != "/" {
		return false
	}
	return in.hostOK(r, u.Host, u.Scheme == "https")
}

// splitEntityPath cuts /api/entities/REF[/components/NAME] into the
// entity reference and the component name, unescaped. REF may contain
// "/" (a path such as ship/0/1); NAME may not.
func splitEntityPath(u *url.URL) (ref, comp string, ok bool) {
	rest := strings.TrimPrefix(u.EscapedPath(), "/api/entities/")
	if i := strings.LastIndex(rest, "/components/"); i > 0 {
		name := rest[i+len("/components/"):]
		if name != "" && !strings.Contains(name, "/") {
			c, err := url.PathUnescape(name)
			if err != nil {
				return "", "", false
			}
			comp, rest = c, rest[:i]
		}
	}
	ref, err := url.PathUnescape(rest)
	if err != nil || ref == "" {
		return "", "", false
	}
	return ref, comp, true
}

// splitPrefabPath cuts /api/entities/REF/prefab/ACTION (apply, revert,
// variant) into the unescaped reference and the action; ok is false for
// another path.
func splitPrefabPath(u *url.URL) (ref, action string, ok bool) {
	rest := strings.TrimPrefix(u.EscapedPath(), "/api/entities/")
	i := strings.LastIndex(rest, "/prefab/")
	if i <= 0 {
		return "", "", false
	}
	switch action = rest[i+len("/prefab/"):]; action {
	case "apply", "revert", "variant":
	default:
		return "", "", false
	}
	ref, err := url.PathUnescape(rest[:i])
	if err != nil || ref == "" {
		return "", "", false
	}
	return ref, action, true
}

// splitActionPath cuts /api/entities/REF/ACTION (clone, parent) into the
// unescaped reference and the action; ok is false for another path.
func splitActionPath(u *url.URL) (ref, action string, ok bool) {
	rest := strings.TrimPrefix(u.EscapedPath(), "/api/entities/")
	i := strings.LastIndexByte(rest, '/')
	if i <= 0 {
		return "", "", false
	}
	if action = rest[i+1:]; action != "clone" && action != "parent" {
		return "", "", false
	}
	ref, err := url.PathUnescape(rest[:i])
	if err != nil || ref == "" {
		return "", "", false
	}
	return ref, action, true
}

// do queues fn for the simulation goroutine and writes its reply. A full
// queue is answered 503 at once; a client that goes away stops waiting
// (its request is skipped if not served yet).
func (in *Inspector) do(w http.ResponseWriter, r *http.Request, fn func() reply) {
	in.queueWork(w, r, &work{fn: fn})
}

// doSteps is do for a request served in steps (see work.step).
func (in *Inspector) doSteps(w http.ResponseWriter, r *http.Request, step func(until time.Time) (reply, bool)) {
	in.queueWork(w, r, &work{step: step})
}

// queueWork queues it and writes its reply. A read (GET) joins an
// identical read (same path and query) that waits in the queue, not yet
// begun, if there is one: both get the one answer, made once, after both
// arrived (see work.key).
func (in *Inspector) queueWork(w http.ResponseWriter, r *http.Request, it *work) {
	select {
	case <-in.closed:
		writeError(w, http.StatusServiceUnavailable, "inspect: the simulation has stopped")
		return
	default:
	}
	it.ctx, it.name, it.done = r.Context(), r.Method+" "+r.URL.Path, make(chan reply, 1)
	done := it.done
	if r.Method == http.MethodGet {
		it.key = r.URL.Path + "?" + r.URL.RawQuery
	}
	in.shareMu.Lock()
	if x := in.shared[it.key]; it.key != "" && x != nil {
		done = make(chan reply, 1)
		x.more = append(x.more, waiter{r.Context(), done})
		in.shareMu.Unlock()
	} else {
		select {
		case in.queue <- it:
			if it.key != "" {
				in.shared[it.key] = it
			}
			in.shareMu.Unlock()
		default:
			in.shareMu.Unlock()
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("inspect: too many requests waiting for the simulation (%d); try again", cap(in.queue)))
			return
		}
		select {
		case in.wake <- struct{}{}:
		default:
		}
	}
	select {
	case rep := <-done:
		if rep.enc != nil {
			b, err := in.encoded(rep.enc)
			if err != nil {
				rep = errReply(http.StatusInternalServerError, "inspect: "+err.Error())
			} else {
				rep.raw = b
			}
		}
		rep.write(w)
	case <-r.Context().Done():
	case <-in.closed:
		writeError(w, http.StatusServiceUnavailable, "inspect: the simulation has stopped")
	}
}

func (rep reply) write(w http.ResponseWriter) {
	for k, v := range rep.header {
		w.Header().Set(k, v)
	}
	if rep.raw != nil {
		ct := rep.ctype
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(rep.raw)))
		w.WriteHeader(rep.status)
		_, _ = w.Write(rep.raw)
		return
	}
	writeJSON(w, rep.status, rep.body)
}

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error string `json:"error"`
	// Col is the 1-based column of a selector error.
	Col int `json:"col,omitempty"`
	// Property and Offset locate an attribute error: the property
	// concerned and the byte offset of the bad text in the body.
	Property string `json:"property,omitempty"`
	Offset   *int   `json:"offset,omitempty"`
}

func errReply(status int, msg string) reply {
	return reply{status: status, body: errorBody{Error: msg}}
}

func okReply(v any) reply { return reply{status: http.StatusOK, body: v} }

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{Error: "inspect: encoding the answer: " + err.Error()})
	}
	b = append(b, '\n')
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// readBody reads a request body bounded by Options.MaxBody; ok is false
// when it wrote an error (413 for a body too large).
func (in *Inspector) readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if r.ContentLength > in.opt.MaxBody {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("inspect: body of %d bytes is larger than the %d allowed", r.ContentLength, in.opt.MaxBody))
		return nil, false
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, in.opt.MaxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("inspect: body larger than the %d bytes allowed", in.opt.MaxBody))
		} else {
			writeError(w, http.StatusBadRequest, "inspect: reading the body: "+err.Error())
		}
		return nil, false
	}
	return b, true
}

// wantSave reads the save parameter of a change: ok is false when it
// wrote an error (400 for a value other than 1/true or 0/false).
func (in *Inspector) wantSave(w http.ResponseWriter, r *http.Request) (save, ok bool) {
	switch v := r.URL.Query().Get("save"); v {
	case "", "0", "false":
		return false, true
	case "1", "true":
		return true, true
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: save=%q: want 1 or 0", v))
		return false, false
	}
}

// index answers GET / with the page to a browser, and the list of
// endpoints to anything else.
func index(w http.ResponseWriter, r *http.Request) {
	if wantsPage(r) {
		page(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, indexText)
}

const indexText = `scenecs inspector: the running scene over HTTP (docs/inspector.md).

GET    /api/scene                            live state, as scene-run dump -format json
GET    /api/query?selector=S[&full=1]        entities matching S
GET    /api/components                       component and system schemas
GET    /api/entities/REF                     one entity (REF: id, #id or path such as ship/0)
POST   /api/entities                         create an entity (JSON body)          [token]
DELETE /api/entities/REF                     destroy an entity and its subtree     [token]
PUT    /api/entities/REF/components/NAME     set from an attribute string body     [token]
PUT    /api/entities/REF/components/NAME.P   set one property or axes (position.x) [token]
DELETE /api/entities/REF/components/NAME     remove a component                    [token]
POST   /api/entities/REF/events/NAME         emit an event (JSON detail body)      [token]
POST   /api/entities/REF/clone               copy an entity and its subtree        [token]
PUT    /api/entities/REF/parent              move under the body's REF ("": root)  [token]
POST   /api/entities/REF/prefab/revert       an instance's value back to its prefab's [token]
POST   /api/entities/REF/prefab/apply?save=1 an instance's value into its prefab  [token]
POST   /api/entities/REF/prefab/variant?save=1 a new prefab from the instance   [token]
GET    /api/history                          the changes made through the API
POST   /api/undo, /api/redo                  undo or redo the last change          [token]
POST   /api/pause, /api/play, /api/step?n=N  pause, play, step N ticks             [token]
GET    /api/stats                            tick statistics, per-system times
GET    /api/schedule                         phases, systems in run order, access, rates, times
POST   /api/schedule/enable?name=SYSTEM      turn a system on (disable: off)       [token]
POST   /api/schedule/step?name=SYSTEM        run one system once now               [token]
GET    /api/events[?events=NAME,...]         Server-Sent Events: stats, reload, change, history, entity-event
GET    /api/transforms?components=position   packed float32 values for 3D views
GET    /api/transforms/stream?...&fps=N      the same, frame after frame, on one response
GET    /api/colors?selector=S                packed colours, in the order of /api/transforms
GET    /api/table?selector=S[&components=..] the matches as table rows, with values (offset, limit)
GET    /api/tree                             every entity's reference, id, classes and depth

[token]: Authorization: Bearer TOKEN, or ?token=TOKEN (printed when the run starts).
A browser opening / gets the inspector's page.
`
