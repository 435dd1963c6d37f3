package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/scenecs/scenecs/rooms"
)

// CreateRequest asks the fleet for a room.
type CreateRequest struct {
	// ID is the new room's id (see rooms.CheckID).
	ID string `json:"id"`
	// Scene names the scene: a file of the hosts' Options.Scenes, or,
	// with Data, the file name that gives Data's format.
	Scene string `json:"scene"`
	// Data, if not empty, is the scene itself (a scene file or a dump).
	Data []byte `json:"data,omitempty"`
	// Hz is the tick rate (default rooms.DefaultHz) and Seed the seed
	// mixed into its spawners'.
	Hz   float64 `json:"hz,omitempty"`
	Seed int64   `json:"seed,omitempty"`
	// Host, if not empty, places the room on that host; otherwise the
	// host that takes the request places it on the live host with the
	// fewest rooms.
	Host string `json:"host,omitempty"`
}

// statusHeader carries an answer's HTTP status.
const statusHeader = "Status"

// respond answers m (if it wants an answer) with status and body.
func respond(m *nats.Msg, status int, body []byte) {
	if m.Reply == "" {
		return
	}
	r := nats.NewMsg(m.Reply)
	r.Header.Set(statusHeader, strconv.Itoa(status))
	r.Data = body
	_ = m.RespondMsg(r)
}

// respondErr answers m with status and {"error": msg}.
func respondErr(m *nats.Msg, status int, msg string) {
	b, _ := json.Marshal(map[string]string{"error": msg})
	respond(m, status, b)
}

// onCreate serves a create request: here, or on the host it places the
// room on.
func (h *Host) onCreate(m *nats.Msg) {
	var req CreateRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respondErr(m, http.StatusBadRequest, "fleet: create: "+err.Error())
		return
	}
	if err := rooms.CheckID(req.ID); err != nil {
		respondErr(m, http.StatusBadRequest, "fleet: create: "+err.Error())
		return
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if req.Host == "" {
		req.Host = h.place(ctx)
	}
	if req.Host != h.opt.ID {
		h.forward(m, req)
		return
	}
	e, err := h.create(ctx, req)
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, rooms.ErrExists) {
			status = http.StatusConflict
		}
		respondErr(m, status, err.Error())
		return
	}
	b, _ := json.Marshal(e)
	respond(m, http.StatusOK, b)
}

// forward passes a create request on to the host req.Host and its
// answer back.
func (h *Host) forward(m *nats.Msg, req CreateRequest) {
	b, _ := json.Marshal(req)
	resp, err := h.nc.Request(h.n.hostCreate+req.Host+".create", b, h.opt.Timeout)
	if err != nil {
		respondErr(m, http.StatusBadGateway, fmt.Sprintf("fleet: create on host %s: %v", req.Host, err))
		return
	}
	status, _ := strconv.Atoi(resp.Header.Get(statusHeader))
	respond(m, status, resp.Data)
}

// place returns the live host with the fewest rooms in the directory,
// one of them at random on a tie (so that hosts placing rooms at once
// spread them), or this host if the directory cannot be read.
func (h *Host) place(ctx context.Context) string {
	es, err := h.st.roomEntries(ctx, 0)
	if err != nil {
		return h.opt.ID
	}
	live, err := h.st.liveHosts(ctx, 0, h.opt.ID)
	if err != nil {
		return h.opt.ID
	}
	count := map[string]int{h.opt.ID: 0}
	for id := range live {
		count[id] = 0
	}
	for _, e := range es {
		if _, ok := count[e.Host]; ok {
			count[e.Host]++
		}
	}
	least := count[h.opt.ID]
	for _, n := range count {
		least = min(least, n)
	}
	var ties []string
	for id, n := range count {
		if n == least {
			ties = append(ties, id)
		}
	}
	return ties[rand.IntN(len(ties))]
}

// create makes the room req asks for on this host: its directory entry
// first (which fails if the id is taken anywhere in the fleet), then the
// room, then its first snapshot.
func (h *Host) create(ctx context.Context, req CreateRequest) (*Entry, error) {
	spec := rooms.Spec{ID: req.ID, Hz: req.Hz, Seed: req.Seed, File: req.Scene}
	if len(req.Data) > 0 {
		spec.Data = req.Data
	} else {
		spec.FS = h.opt.Scenes
	}
	e := &Entry{ID: req.ID, Host: h.opt.ID, Scene: req.Scene, Hz: req.Hz, Seed: req.Seed}
	if e.Hz == 0 {
		e.Hz = rooms.DefaultHz
	}
	h.mu.Lock()
	h.pending[req.ID] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.pending, req.ID)
		h.mu.Unlock()
	}()
	if err := h.st.create(ctx, e); err != nil {
		if errors.Is(err, jetstream.ErrKeyExists) {
			return nil, fmt.Errorf("fleet: room %s exists: %w", req.ID, err)
		}
		return nil, fmt.Errorf("fleet: room %s: directory: %w", req.ID, err)
	}
	r, err := h.local.Create(ctx, spec)
	if err != nil {
		_ = h.st.rooms.Delete(ctx, req.ID, jetstream.LastRevision(e.rev))
		return nil, err
	}
	o, err := h.adopt(r, e)
	if err != nil {
		return nil, err
	}
	// The first snapshot makes the room resumable at once; if it fails,
	// the next interval's tries again.
	_ = h.snapshot(ctx, o)
	o.mu.Lock()
	defer o.mu.Unlock()
	c := *o.e
	return &c, nil
}

// adopt serves the room r, whose entry e names this host, on its
// subject.
func (h *Host) adopt(r *rooms.Room, e *Entry) (*owned, error) {
	o := &owned{e: e, room: r}
	sub, err := h.nc.Subscribe(h.n.room+r.ID()+".*", func(m *nats.Msg) { h.onRoom(o, m) })
	if err != nil {
		_ = h.local.Stop(r.ID())
		return nil, fmt.Errorf("fleet: room %s: subscribing: %w", r.ID(), err)
	}
	o.sub = sub
	// The server has the subscription before anyone is told the room
	// is served here: a request right after would find no responder.
	if err := h.nc.FlushTimeout(h.opt.Timeout); err != nil {
		_ = sub.Unsubscribe()
		_ = h.local.Stop(r.ID())
		return nil, fmt.Errorf("fleet: room %s: subscribing: %w", r.ID(), err)
	}
	h.mu.Lock()
	h.owned[r.ID()] = o
	h.mu.Unlock()
	return o, nil
}
