package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"time"

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

// ErrExists is wrapped by the error of a create whose room id is taken
// in the fleet ("fleet: room ID exists").
var ErrExists = errors.New("exists")

// fullHeader marks the answer of a host that has no room left
// (MaxRooms): the placing host tries another.
const fullHeader = "Scenecs-Full"

// onCreate serves a create request: here, or on the host it places the
// room on; a host with no room left is passed over for the next.
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
	hz := req.Hz
	if hz == 0 {
		hz = rooms.DefaultHz
	}
	if err := rooms.CheckRate(hz, rooms.MaxHz); err != nil {
		respondErr(m, http.StatusBadRequest, fmt.Sprintf("fleet: create %s: %v", req.ID, err))
		return
	}
	ctx, cancel := h.ctx()
	defer cancel()
	if req.Host != "" {
		status, body, full := h.createOn(ctx, req)
		if full {
			respondErr(m, http.StatusServiceUnavailable, fmt.Sprintf("fleet: create %s: host %s is full (it runs its most rooms)", req.ID, req.Host))
			return
		}
		respond(m, status, body)
		return
	}
	for _, host := range h.place(ctx) {
		req.Host = host
		if status, body, full := h.createOn(ctx, req); !full {
			respond(m, status, body)
			return
		}
	}
	respondErr(m, http.StatusServiceUnavailable, fmt.Sprintf("fleet: create %s: every host is full (each runs its most rooms)", req.ID))
}

// createOn creates the room req asks for on host req.Host (this one, or
// another through its subject) and returns the answer, and whether that
// host had no room left.
func (h *Host) createOn(ctx context.Context, req CreateRequest) (status int, body []byte, full bool) {
	if req.Host != h.opt.ID {
		return h.forward(ctx, req)
	}
	e, err := h.create(ctx, req)
	if err != nil {
		status := http.StatusBadRequest
		switch {
		case errors.Is(err, ErrExists) || errors.Is(err, rooms.ErrExists):
			status = http.StatusConflict
		case errors.Is(err, rooms.ErrFull):
			return http.StatusServiceUnavailable, nil, true
		}
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return status, b, false
	}
	b, _ := json.Marshal(e)
	return http.StatusOK, b, false
}

// forward passes a create request on to the host req.Host and returns
// its answer.
func (h *Host) forward(ctx context.Context, req CreateRequest) (status int, body []byte, full bool) {
	b, _ := json.Marshal(req)
	resp, err := h.nc.RequestWithContext(ctx, h.n.hostCreate+req.Host+".create", b)
	if errors.Is(err, nats.ErrNoResponders) {
		b, _ := json.Marshal(map[string]string{"error": fmt.Sprintf("fleet: create %s: no live host %s", req.ID, req.Host)})
		return http.StatusNotFound, b, false
	}
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": fmt.Sprintf("fleet: create %s on host %s: %v", req.ID, req.Host, err)})
		return http.StatusBadGateway, b, false
	}
	if resp.Header.Get(fullHeader) != "" {
		return 0, nil, true
	}
	status, _ = strconv.Atoi(resp.Header.Get(statusHeader))
	return status, resp.Data, false
}

// onHostCreate serves a create request forwarded to this host: here, or
// refused as full (marked so, for the placing host to try another).
func (h *Host) onHostCreate(m *nats.Msg) {
	var req CreateRequest
	if err := json.Unmarshal(m.Data, &req); err != nil || req.Host != h.opt.ID {
		h.onCreate(m) // a request of another shape: served as any
		return
	}
	ctx, cancel := h.ctx()
	defer cancel()
	status, body, full := h.createOn(ctx, req)
	if full {
		// With a body: a 503 without one reads as "no responders".
		r := nats.NewMsg(m.Reply)
		r.Header.Set(statusHeader, strconv.Itoa(http.StatusServiceUnavailable))
		r.Header.Set(fullHeader, h.opt.ID)
		r.Data, _ = json.Marshal(map[string]string{"error": fmt.Sprintf("fleet: create %s: host %s is full", req.ID, h.opt.ID)})
		_ = m.RespondMsg(r)
		return
	}
	respond(m, status, body)
}

// place returns the live hosts with room left, those with the fewest
// rooms in the directory first, in random order on a tie (so that hosts
// placing rooms at once spread them); this host alone if the directory
// cannot be read.
func (h *Host) place(ctx context.Context) []string {
	es, err := h.st.roomEntries(ctx, 0)
	if err != nil {
		return []string{h.opt.ID}
	}
	live, err := h.st.liveHosts(ctx, 0, h.opt.ID)
	if err != nil {
		return []string{h.opt.ID}
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
	ids := make([]string, 0, len(count))
	for id, n := range count {
		if hi := live[id]; hi == nil || hi.MaxRooms == 0 || n < hi.MaxRooms {
			ids = append(ids, id)
		}
	}
	rand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	sort.SliceStable(ids, func(i, j int) bool { return count[ids[i]] < count[ids[j]] })
	if len(ids) == 0 {
		return []string{h.opt.ID} // all full by the directory: this one says so
	}
	return ids
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
	e := &Entry{ID: req.ID, Host: h.opt.ID, Scene: req.Scene, Hz: req.Hz, Seed: req.Seed, Trial: time.Now()}
	if e.Hz == 0 {
		e.Hz = rooms.DefaultHz
	}
	// Refused at once when full; rooms.Host.Create refuses the creates
	// that pass here at once beyond the last free place.
	if h.free() <= 0 {
		return nil, fmt.Errorf("fleet: room %s: %w", req.ID, rooms.ErrFull)
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
			return nil, fmt.Errorf("fleet: room %s %w", req.ID, ErrExists)
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
