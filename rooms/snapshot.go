package rooms

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/loader"
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
	// Dump is the World as a YAML dump (loader.Export, loader.WriteYAML),
	// with the mixins of the scene it was loaded from: a dump alone holds
	// none, and a spawner names the mixin it spawns.
	Dump []byte `json:"dump"`
	// Spawners are the running states of the spawners, by entity path
	// (loader.EntityPath): where their random streams are.
	Spawners map[string]components.SpawnerState `json:"spawners,omitempty"`
	// Taken is when the snapshot was taken.
	Taken time.Time `json:"taken"`
}

// Snapshot takes a snapshot of the room. The World is read between two
// ticks (its export into a document, and the spawners' states); the
// document is printed after, on the caller's goroutine, while the room
// ticks on.
func (r *Room) Snapshot(ctx context.Context) (*Snapshot, error) {
	var s *Snapshot
	var doc *loader.Document
	err := r.Do(ctx, func(reg *registry.Registry) error {
		var err error
		s, doc, err = r.capture()
		return err
	})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := loader.WriteYAML(&buf, doc); err != nil {
		return nil, fmt.Errorf("room %s: snapshot: %w", r.id, err)
	}
	s.Dump = buf.Bytes()
	return s, nil
}

// capture reads what a snapshot holds from the World, on the room's
// goroutine: all but the printed dump.
func (r *Room) capture() (*Snapshot, *loader.Document, error) {
	doc := loader.Export(r.reg, loader.ExportOptions{})
	doc.Mixins = withMixins(doc.Mixins, r.mixins)
	s := &Snapshot{ID: r.id, Scene: r.scene, Hz: r.hz, Seed: r.seed, Tick: r.tick.Load(),
		Time: r.time0 + r.reg.Time(), Taken: time.Now()}
	es, err := r.reg.QueryAll("[spawner]")
	if err != nil {
		return nil, nil, fmt.Errorf("room %s: snapshot: %w", r.id, err)
	}
	for i, p := range loader.EntityPaths(r.reg, es) {
		if st, ok := r.b.SpawnerState(es[i]); ok {
			if s.Spawners == nil {
				s.Spawners = map[string]components.SpawnerState{}
			}
			s.Spawners[p] = st
		}
	}
	return s, doc, nil
}

// restore gives a room just loaded from s's dump the rest of s: its tick
// count and its spawners' running states.
func (r *Room) restore(s *Snapshot) error {
	r.tick.Store(s.Tick)
	r.time0 = s.Time
	if len(s.Spawners) == 0 {
		return nil
	}
	es, err := r.reg.QueryAll("[spawner]")
	if err != nil {
		return err
	}
	for i, p := range loader.EntityPaths(r.reg, es) {
		if st, ok := s.Spawners[p]; ok {
			if err := r.b.SetSpawnerState(es[i], st); err != nil {
				return fmt.Errorf("resuming %s: %w", p, err)
			}
		}
	}
	return nil
}

// withMixins returns have plus the mixins of scene it lacks.
func withMixins(have, scene []*loader.MixinSpec) []*loader.MixinSpec {
	if len(scene) == 0 {
		return have
	}
	ids := make(map[string]bool, len(have))
	for _, m := range have {
		ids[m.ID] = true
	}
	for _, m := range scene {
		if !ids[m.ID] {
			have = append(have, m)
		}
	}
	return have
}
