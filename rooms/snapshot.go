package rooms

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Snapshot is what a room needs to resume elsewhere: its dump (JSON,
// which loads back as a scene) and what the dump does not hold.
type Snapshot struct {
	// ID, Scene, Hz and Seed are the room's.
	ID    string  `json:"id"`
	Scene string  `json:"scene"`
	Hz    float64 `json:"hz"`
	Seed  int64   `json:"seed"`
	// Tick is the number of ticks the room had run, and Time its scene
	// time in seconds.
	Tick int64   `json:"tick"`
	Time float64 `json:"time"`
	// Clock is the scene time with the fixed-step phases' clocks, which
	// the resumed room goes on from (nil in a snapshot of an older
	// version: the scene time alone).
	Clock *registry.Clock `json:"clock,omitempty"`
	// Dump is the World as a JSON dump (export.WriteJSON).
	Dump []byte `json:"dump"`
	// Header is what the dump does not hold of the scene the room was
	// made from, as a YAML scene of its own: its mixins, which spawners
	// name (with the scene's declarations). It is loaded first, then the
	// dump.
	Header []byte `json:"header,omitempty"`
	// Spawners are the running states of the spawners, by entity path
	// (export.EntityPath): where their random streams are.
	Spawners map[string]components.SpawnerState `json:"spawners,omitempty"`
	// Taken is when the snapshot was taken.
	Taken time.Time `json:"taken"`
}

// Snapshot takes a snapshot of the room as it is between two ticks. The
// room's goroutine only copies the World's values (a capture: a few
// milliseconds for 10,000 entities); the dump is written from the copy
// on the caller's goroutine while the room ticks on.
func (r *Room) Snapshot(ctx context.Context) (*Snapshot, error) {
	var s *Snapshot
	var c *export.JSONCapture
	err := r.Do(ctx, func(reg *registry.Registry) error {
		var err error
		s, c, err = r.capture()
		return err
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(r.lastDump.Load()))
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("room %s: snapshot: %w", r.id, err)
	}
	r.lastDump.Store(int64(buf.Len()))
	s.Dump = buf.Bytes()
	return s, nil
}

// capture takes the snapshot on the room's goroutine, all but its dump,
// whose values it copies.
func (r *Room) capture() (*Snapshot, *export.JSONCapture, error) {
	c := export.NewJSONCapture(r.reg, export.Options{})
	c.Capture(time.Time{}) // all of it, between two ticks
	s := &Snapshot{ID: r.id, Scene: r.scene, Hz: r.hz, Seed: r.seed, Tick: r.tick.Load(),
		Time: r.reg.Time(), Clock: ptr(r.reg.Schedule().Clock()), Header: r.header, Taken: time.Now()}
	es, err := r.reg.QueryAll("[spawner]")
	if err != nil {
		return nil, nil, fmt.Errorf("room %s: snapshot: %w", r.id, err)
	}
	for i, p := range export.EntityPaths(r.reg, es) {
		if st, ok := r.b.SpawnerState(es[i]); ok {
			if s.Spawners == nil {
				s.Spawners = map[string]components.SpawnerState{}
			}
			s.Spawners[p] = st
		}
	}
	return s, c, nil
}

// sceneHeader returns the part of a scene a JSON dump does not hold, as
// a scene file of its own (YAML): its mixins, which spawners name, with
// the declarations they use. Nil if the scene has no mixins.
func sceneHeader(doc *scenefile.Document) ([]byte, error) {
	if len(doc.Mixins) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := scenefile.WriteYAML(&buf, &scenefile.Document{Decls: doc.Decls, Mixins: doc.Mixins}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// restore gives a room just loaded from s's dump the rest of s: its tick
// count and its spawners' running states.
func (r *Room) restore(s *Snapshot) error {
	r.tick.Store(s.Tick)
	c := s.Clock
	if c == nil {
		c = &registry.Clock{Time: s.Time} // a snapshot of before the clock
	}
	if err := r.reg.Schedule().SetClock(*c); err != nil {
		return fmt.Errorf("resuming: %w", err)
	}
	if len(s.Spawners) == 0 {
		return nil
	}
	es, err := r.reg.QueryAll("[spawner]")
	if err != nil {
		return err
	}
	for i, p := range export.EntityPaths(r.reg, es) {
		if st, ok := s.Spawners[p]; ok {
			if err := r.b.SetSpawnerState(es[i], st); err != nil {
				return fmt.Errorf("resuming %s: %w", p, err)
			}
		}
	}
	return nil
}

// ptr returns a pointer to a copy of v.
func ptr[T any](v T) *T { return &v }
