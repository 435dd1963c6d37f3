package components

import (
	"fmt"

	"github.com/scenecs/scenecs/ecs"
)

// SpawnerState is what a running spawner holds beyond its component's
// data: where its random stream is, and the part of an entity its rate
// owes. A dump holds the component (with done set, so a scene loaded
// back from it does not spawn its count again) but not this; a program
// that saves a running scene and resumes it elsewhere (a room's
// snapshot, see package rooms) carries it beside the dump, so that the
// resumed spawner draws the numbers the first one would have drawn.
type SpawnerState struct {
	// Random is the state of the spawner's random stream
	// (math/rand/v2.PCG's MarshalBinary).
	Random []byte `json:"random"`
	// Owed is the fraction of an entity the rate has accumulated and not
	// yet spawned.
	Owed float64 `json:"owed"`
}

// SpawnerState returns the running state of the spawner of entity e;
// false if e has no spawner (or its spawner has not been initialised).
func (b *Builtins) SpawnerState(e ecs.Entity) (SpawnerState, bool) {
	st := b.spawnStates[e]
	if st == nil || st.src == nil {
		return SpawnerState{}, false
	}
	rnd, err := st.src.MarshalBinary()
	if err != nil { // PCG's MarshalBinary does not fail
		return SpawnerState{}, false
	}
	return SpawnerState{Random: rnd, Owed: st.owed}, true
}

// SetSpawnerState gives the spawner of entity e the running state s
// (from SpawnerState, possibly in another process): its random stream
// goes on from where s's was. It is an error if e has no spawner or s's
// random state does not decode.
func (b *Builtins) SetSpawnerState(e ecs.Entity, s SpawnerState) error {
	st := b.spawnStates[e]
	if st == nil || st.src == nil {
		return fmt.Errorf("spawner state: entity %v has no spawner", e)
	}
	if err := st.src.UnmarshalBinary(s.Random); err != nil {
		return fmt.Errorf("spawner state: random stream: %w", err)
	}
	if s.Owed < 0 || s.Owed != s.Owed {
		return fmt.Errorf("spawner state: owed %v is not a number >= 0", s.Owed)
	}
	st.owed = s.Owed
	return nil
}
