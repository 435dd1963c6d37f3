package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/scenecs/scenecs/rooms"
)

// The requests an operator sends to the hosts about rooms no host runs
// (PREFIX.rooms.resume, PREFIX.rooms.destroy: the room's id as the
// payload), served by the hosts' queue group, so that operators need no
// right to write the directory themselves.

// onResume lifts a room's quarantine: its failures are forgotten and it
// is released, for a host to claim and resume from its last snapshot at
// its next upkeep.
func (h *Host) onResume(m *nats.Msg) {
	id := strings.TrimSpace(string(m.Data))
	ctx, cancel := h.ctx()
	defer cancel()
	e, status, msg := h.entryFor(ctx, id)
	if e == nil {
		respondErr(m, status, msg)
		return
	}
	if e.Quarantine == "" {
		respondErr(m, http.StatusConflict, fmt.Sprintf("fleet: room %s is not quarantined", id))
		return
	}
	was := e.Quarantine
	e.Quarantine, e.Failures, e.Trial, e.Host = "", 0, time.Time{}, ""
	if err := h.st.update(ctx, e); err != nil {
		respondErr(m, http.StatusConflict, fmt.Sprintf("fleet: room %s: changed meanwhile, try again: %v", id, err))
		return
	}
	h.opt.Logf("room %s: quarantine lifted by an operator (it was: %s)", id, was)
	b, _ := json.Marshal(e)
	respond(m, http.StatusOK, b)
}

// onDestroy removes a room no host runs (quarantined, or released) from
// the directory and the snapshot store. A room a host runs is destroyed
// by that host (the verb destroy).
func (h *Host) onDestroy(m *nats.Msg) {
	id := strings.TrimSpace(string(m.Data))
	ctx, cancel := h.ctx()
	defer cancel()
	e, status, msg := h.entryFor(ctx, id)
	if e == nil {
		respondErr(m, status, msg)
		return
	}
	if e.Host != "" && e.Quarantine == "" {
		live, err := h.st.liveHosts(ctx, 0, e.Host)
		if err != nil || live[e.Host] != nil {
			respondErr(m, http.StatusConflict, fmt.Sprintf("fleet: room %s runs on host %s: destroy it there (the verb destroy)", id, e.Host))
			return
		}
	}
	if err := h.st.rooms.Delete(ctx, id, jetstream.LastRevision(e.rev)); err != nil {
		respondErr(m, http.StatusConflict, fmt.Sprintf("fleet: room %s: changed meanwhile, try again: %v", id, err))
		return
	}
	_ = h.st.snaps.Delete(ctx, id)
	h.opt.Logf("room %s destroyed by an operator (no host ran it)", id)
	respond(m, http.StatusOK, []byte(`{"destroyed":true}`))
}

// entryFor returns room id's entry, or nil with the status and message
// to answer.
func (h *Host) entryFor(ctx context.Context, id string) (*Entry, int, string) {
	if err := rooms.CheckID(id); err != nil {
		return nil, http.StatusBadRequest, "fleet: " + err.Error()
	}
	e, err := h.st.getEntry(ctx, id)
	switch {
	case err != nil:
		return nil, http.StatusServiceUnavailable, fmt.Sprintf("fleet: room %s: reading the directory: %v", id, err)
	case e == nil:
		return nil, http.StatusNotFound, "fleet: no such room: " + id
	}
	return e, 0, ""
}

// Resume lifts room id's quarantine (see Entry.Quarantine): a host
// resumes it from its last snapshot at its next upkeep. It returns the
// room's entry, released.
func (c *Client) Resume(ctx context.Context, id string) (*Entry, error) {
	body, err := c.hostRequest(ctx, c.n.resume, id)
	if err != nil {
		return nil, fmt.Errorf("fleet: resume %s: %w", id, err)
	}
	var e Entry
	return &e, json.Unmarshal(body, &e)
}

// hostRequest sends id to one host on subj (a queue group) and returns
// its answer.
func (c *Client) hostRequest(ctx context.Context, subj, id string) ([]byte, error) {
	resp, err := c.nc.RequestWithContext(ctx, subj, []byte(id))
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, errors.New("no host serves the fleet (has a host joined?)")
	}
	if err != nil {
		return nil, err
	}
	return answer(resp)
}
