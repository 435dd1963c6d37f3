package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/scenecs/scenecs/rooms"
)

// Client reaches a fleet's rooms: it creates, destroys, lists and asks
// them, from any process connected to the fleet's NATS.
type Client struct {
	nc *nats.Conn
	n  names
	st *stores
}

// NewClient returns a Client of the fleet with the given prefix (empty:
// "scenecs") on nc. It opens the fleet's buckets as the hosts made them;
// it fails if no host has joined yet.
func NewClient(ctx context.Context, nc *nats.Conn, prefix string) (*Client, error) {
	if prefix == "" {
		prefix = "scenecs"
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	c := &Client{nc: nc, n: namesOf(prefix)}
	if c.st, err = findStores(ctx, js, c.n); err != nil {
		return nil, err
	}
	return c, nil
}

// Error is an answer other than 200 from a room or host: its status and
// message.
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%d: %s", e.Status, e.Msg) }

// answer returns resp's body, or an *Error for a status other than 200.
func answer(resp *nats.Msg) ([]byte, error) {
	status, _ := strconv.Atoi(resp.Header.Get(statusHeader))
	if status == http.StatusOK {
		return resp.Data, nil
	}
	var e struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(resp.Data, &e) != nil || e.Error == "" {
		e.Error = string(resp.Data)
	}
	return nil, &Error{Status: status, Msg: e.Error}
}

// Create asks the fleet for a room and returns its directory entry.
func (c *Client) Create(ctx context.Context, req CreateRequest) (*Entry, error) {
	b, _ := json.Marshal(req)
	resp, err := c.nc.RequestWithContext(ctx, c.n.create, b)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, fmt.Errorf("fleet: create %s: no host serves create requests (has a host joined?)", req.ID)
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: create %s: %w", req.ID, err)
	}
	body, err := answer(resp)
	if err != nil {
		return nil, fmt.Errorf("fleet: create %s: %w", req.ID, err)
	}
	var e Entry
	return &e, json.Unmarshal(body, &e)
}

// Ask sends verb with payload to room id and returns the room's answer
// (the inspection API's JSON), or an *Error for a status other than 200.
//
// A room no host serves is an *Error in the fleet's words: 404 "fleet:
// no such room: ID" for a room the directory has no entry for, 410 for
// one in quarantine (with why), 503 for one moving to another host.
func (c *Client) Ask(ctx context.Context, id, verb string, payload []byte) ([]byte, error) {
	resp, err := c.nc.RequestWithContext(ctx, c.n.room+id+"."+verb, payload)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, c.unserved(ctx, id)
	}
	if err != nil {
		return nil, fmt.Errorf("fleet: room %s: %s: %w", id, verb, err)
	}
	return answer(resp)
}

// unserved says why no host answered for room id, from the directory.
func (c *Client) unserved(ctx context.Context, id string) error {
	if err := rooms.CheckID(id); err != nil {
		return &Error{Status: http.StatusBadRequest, Msg: "fleet: " + err.Error()}
	}
	e, err := c.st.getEntry(ctx, id)
	switch {
	case err != nil:
		return &Error{Status: http.StatusServiceUnavailable, Msg: fmt.Sprintf("fleet: room %s: no host answers, and the directory cannot be read: %v", id, err)}
	case e == nil:
		return &Error{Status: http.StatusNotFound, Msg: "fleet: no such room: " + id}
	case e.Quarantine != "":
		return &Error{Status: http.StatusGone, Msg: fmt.Sprintf("fleet: room %s is quarantined: %s", id, e.Quarantine)}
	}
	return &Error{Status: http.StatusServiceUnavailable, Msg: fmt.Sprintf("fleet: room %s: no host serves it at the moment (it is moving to another host): try again", id)}
}

// Send sends verb with payload to room id without waiting for an answer
// (a client's input: "emit", "set").
func (c *Client) Send(id, verb string, payload []byte) error {
	return c.nc.Publish(c.n.room+id+"."+verb, payload)
}

// Destroy stops room id and removes it from the fleet: through its host,
// or, for a room no host runs (quarantined), through any host.
func (c *Client) Destroy(ctx context.Context, id string) error {
	_, err := c.Ask(ctx, id, "destroy", nil)
	var fe *Error
	if errors.As(err, &fe) && (fe.Status == http.StatusGone || fe.Status == http.StatusServiceUnavailable) {
		if _, err = c.hostRequest(ctx, c.n.destroy, id); err != nil {
			return fmt.Errorf("fleet: destroy %s: %w", id, err)
		}
	}
	return err
}

// Follow calls fn with each State room id publishes, until the returned
// subscription is unsubscribed.
func (c *Client) Follow(id string, fn func(State)) (*nats.Subscription, error) {
	return c.nc.Subscribe(c.n.state+id, func(m *nats.Msg) {
		var s State
		if json.Unmarshal(m.Data, &s) == nil {
			fn(s)
		}
	})
}

// Listing is a room as List shows it: its directory entry, and what its
// host says of it now (Live false if it did not answer).
type Listing struct {
	Entry
	Live        bool    `json:"live"`
	Tick        int64   `json:"liveTick"`
	Entities    int     `json:"entities"`
	TicksPerSec float64 `json:"ticksPerSecond"`
}

// List returns every room of the directory, by id, each asked for its
// live tick, entities and ticks per second.
func (c *Client) List(ctx context.Context) ([]Listing, error) {
	es, err := c.st.roomEntries(ctx, listGrace)
	if err != nil {
		return nil, fmt.Errorf("fleet: reading the directory: %w", err)
	}
	out := make([]Listing, len(es))
	for i, e := range es {
		out[i].Entry = *e
		if e.Host == "" || e.Quarantine != "" {
			continue
		}
		actx, cancel := context.WithTimeout(ctx, time.Second)
		b, err := c.Ask(actx, e.ID, "info", nil)
		cancel()
		var info struct {
			Tick        int64   `json:"tick"`
			Entities    int     `json:"entities"`
			TicksPerSec float64 `json:"ticksPerSecond"`
		}
		if err == nil && json.Unmarshal(b, &info) == nil {
			out[i].Live, out[i].Tick, out[i].Entities, out[i].TicksPerSec = true, info.Tick, info.Entities, info.TicksPerSec
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Hosts returns the live hosts, by id.
func (c *Client) Hosts(ctx context.Context) ([]HostInfo, error) {
	m, err := c.st.liveHosts(ctx, listGrace)
	if err != nil {
		return nil, err
	}
	out := make([]HostInfo, 0, len(m))
	for _, h := range m {
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}
