package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// HTTPRequest is the payload of the verb "http": one request of the
// inspection API.
type HTTPRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"` // with its query: "/api/query?selector=..."
	Body   json.RawMessage `json:"body,omitempty"`
}

// SetRequest is the payload of the verb "set": PUT
// /api/entities/ENTITY/components/COMPONENT with Value as the body.
type SetRequest struct {
	Entity    string `json:"entity"`
	Component string `json:"component"`
	Value     string `json:"value"`
}

// EmitRequest is the payload of the verb "emit" (a client's input): POST
// /api/entities/ENTITY/events/EVENT with Detail as the body.
type EmitRequest struct {
	Entity string          `json:"entity"`
	Event  string          `json:"event"`
	Detail json.RawMessage `json:"detail,omitempty"`
}

// verbs are the verbs a room answers on PREFIX.room.ID.VERB.
var verbs = []string{"scene", "query", "get", "set", "emit", "step", "pause", "play", "stats", "components", "info", "snapshot", "destroy", "http", "serve"}

// onRoom answers a message to one of this host's rooms.
func (h *Host) onRoom(o *owned, m *nats.Msg) {
	verb := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
	switch verb {
	case "info":
		b, _ := json.Marshal(o.room.Info())
		respond(m, http.StatusOK, b)
	case "snapshot":
		ctx, cancel := h.ctx()
		defer cancel()
		if err := h.snapshot(ctx, o); err != nil {
			respondErr(m, http.StatusServiceUnavailable, err.Error())
			return
		}
		o.mu.Lock()
		b, _ := json.Marshal(o.e)
		o.mu.Unlock()
		respond(m, http.StatusOK, b)
	case "destroy":
		ctx, cancel := h.ctx()
		defer cancel()
		h.destroy(ctx, o)
		respond(m, http.StatusOK, []byte(`{"destroyed":true}`))
	case "serve":
		h.serve(o, m)
	default:
		method, target, body, err := apiRequest(verb, m.Data)
		if err != nil {
			respondErr(m, http.StatusBadRequest, fmt.Sprintf("fleet: room %s: %s: %v", o.room.ID(), verb, err))
			return
		}
		status, answer := o.room.Request(method, target, body)
		if limit := msgLimit(h.nc); len(answer) > limit {
			respondErr(m, http.StatusBadGateway, fmt.Sprintf("fleet: room %s: %s: the answer (%d bytes) is larger than a NATS message may be here (%d): ask with the verb serve (fleet.Proxy), which sends it in parts", o.room.ID(), verb, len(answer), limit))
			return
		}
		respond(m, status, answer)
	}
}

// apiRequest turns a verb and its payload into a request of the
// inspection API.
func apiRequest(verb string, data []byte) (method, target string, body []byte, err error) {
	arg := strings.TrimSpace(string(data))
	switch verb {
	case "scene", "stats", "components":
		return "GET", "/api/" + verb, nil, nil
	case "pause", "play":
		return "POST", "/api/" + verb, nil, nil
	case "query":
		return "GET", "/api/query?selector=" + url.QueryEscape(arg), nil, nil
	case "get":
		return "GET", "/api/entities/" + url.PathEscape(arg), nil, nil
	case "step":
		if arg == "" {
			arg = "1"
		}
		if _, err := strconv.Atoi(arg); err != nil {
			return "", "", nil, fmt.Errorf("want a number of ticks, not %q", arg)
		}
		return "POST", "/api/step?n=" + arg, nil, nil
	case "set":
		var s SetRequest
		if err := json.Unmarshal(data, &s); err != nil {
			return "", "", nil, err
		}
		return "PUT", "/api/entities/" + url.PathEscape(s.Entity) + "/components/" + url.PathEscape(s.Component), []byte(s.Value), nil
	case "emit":
		var e EmitRequest
		if err := json.Unmarshal(data, &e); err != nil {
			return "", "", nil, err
		}
		return "POST", "/api/entities/" + url.PathEscape(e.Entity) + "/events/" + url.PathEscape(e.Event), e.Detail, nil
	case "http":
		var r HTTPRequest
		if err := json.Unmarshal(data, &r); err != nil {
			return "", "", nil, err
		}
		if !strings.HasPrefix(r.Path, "/") {
			return "", "", nil, fmt.Errorf("path %q: want an absolute path", r.Path)
		}
		return r.Method, r.Path, r.Body, nil
	}
	return "", "", nil, fmt.Errorf("unknown verb (want one of %s)", strings.Join(verbs, ", "))
}

// destroy stops room o and removes it from the directory and the
// snapshot store.
func (h *Host) destroy(ctx context.Context, o *owned) {
	h.drop(o)
	_ = h.local.Stop(o.room.ID())
	o.mu.Lock()
	rev := o.e.rev
	o.e.Host = ""
	o.mu.Unlock()
	_ = h.st.rooms.Delete(ctx, o.room.ID(), jetstream.LastRevision(rev))
	_ = h.st.snaps.Delete(ctx, o.room.ID())
}
