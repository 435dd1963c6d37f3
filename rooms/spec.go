package rooms

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"time"

	"github.com/scenecs/scenecs/registry"
)

// DefaultHz is a room's tick rate when its Spec gives none.
const DefaultHz = 30

// MaxHz bounds a room's tick rate.
const MaxHz = 1000

// MaxPeriod is the longest tick period a rate may give: a day
// ([registry.MaxPeriod], as a time.Duration).
const MaxPeriod = time.Duration(registry.MaxPeriod) * time.Second

// CheckRate reports whether hz is a tick rate a room's loop can keep:
// one [registry.CheckTickRate] accepts (finite, above 0, a period of at
// most a day) and at most max. The error says what is wrong, without
// naming where the rate came from (the caller adds that).
func CheckRate(hz, max float64) error {
	if err := registry.CheckTickRate(hz); err != nil {
		return err
	}
	if hz > max {
		return fmt.Errorf("tick rate %v: want at most %s ticks per second", hz, strconv.FormatFloat(max, 'f', -1, 64))
	}
	return nil
}

// Spec describes a room to create: its id, its scene and its tick rate.
// The scene is one of three: the file File of FS (with its includes),
// the scene Data held in memory (File then names its format by its
// extension, and the file in messages), or the Snapshot to resume.
type Spec struct {
	// ID names the room: 1 to 64 letters, digits, '-' or '_', so that it
	// fits a NATS subject token and a file name. Unique within a Host.
	ID string
	// FS and File: the scene file File read from FS.
	FS   fs.FS
	File string
	// Data, if not nil, is the scene itself (a scene file or a dump);
	// File names its format ("level.yaml", "dump.json").
	Data []byte
	// Snapshot, if not nil, is a room's snapshot to resume: its dump is
	// the scene, and the room goes on from its tick with its spawners'
	// random streams where they were. FS, File and Data are then unused.
	Snapshot *Snapshot
	// Hz is the tick rate, in ticks per second of wall time and of scene
	// time (the fixed step is 1/Hz): at most MaxHz, and at least one tick
	// a day (see CheckRate). Zero means DefaultHz.
	Hz float64
	// Seed is mixed into every spawner's seed (registry.Registry.Seed).
	Seed int64
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckID reports whether id can name a room: an error saying why not.
func CheckID(id string) error {
	if !idRE.MatchString(id) {
		return fmt.Errorf("room id %q: want 1 to 64 letters, digits, '-' or '_'", id)
	}
	return nil
}

// check validates s and fills in its defaults.
func (s *Spec) check() error {
	if err := CheckID(s.ID); err != nil {
		return err
	}
	if s.Snapshot != nil {
		if err := s.Snapshot.Check(); err != nil {
			return fmt.Errorf("room %s: %w", s.ID, err)
		}
	}
	if s.Hz == 0 {
		s.Hz = DefaultHz
	}
	if err := CheckRate(s.Hz, MaxHz); err != nil {
		return fmt.Errorf("room %s: %w", s.ID, err)
	}
	switch {
	case s.Snapshot != nil:
	case s.Data != nil:
		if s.File == "" {
			return fmt.Errorf("room %s: scene data without a File naming its format", s.ID)
		}
	case s.FS == nil || s.File == "":
		return fmt.Errorf("room %s: no scene (want FS and File, Data, or Snapshot)", s.ID)
	}
	return nil
}

// sceneName is how the room names its scene in listings.
func (s *Spec) sceneName() string {
	if s.Snapshot != nil {
		return s.Snapshot.Scene
	}
	return s.File
}

// maxSnapshotTick bounds a snapshot's tick: the ticks of 30,000 years at
// MaxHz, and a count a float64 holds exactly.
const maxSnapshotTick = 1 << 50

// maxSceneTime bounds a snapshot's scene time and clocks, in seconds
// (about 30 million years).
const maxSceneTime = 1e15

// Check reports whether the snapshot's fields make sense before anything
// of it is loaded: a dump, a tick count from 0, a scene time and clocks
// that are finite and not negative, a clock step of at most MaxPeriod,
// and a tick rate CheckRate takes. A snapshot that fails it is refused
// with the field named: one written by something other than a room (a
// poisoned store) could otherwise hang or crash every host that resumes
// it.
func (s *Snapshot) Check() error {
	bad := func(field string, v any, want string) error {
		return fmt.Errorf("snapshot: %s %v: want %s", field, v, want)
	}
	sane := func(x float64) bool { return x >= 0 && x <= maxSceneTime } // false for NaN
	switch {
	case len(s.Dump) == 0:
		return errors.New("snapshot: it holds no dump")
	case s.Tick < 0 || s.Tick > maxSnapshotTick:
		return bad("tick", s.Tick, fmt.Sprintf("a count of ticks in [0, %d]", int64(maxSnapshotTick)))
	case !sane(s.Time):
		return bad("time", s.Time, "a scene time in seconds, finite and not negative")
	}
	if err := CheckRate(s.Hz, MaxHz); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	c := s.Clock
	if c == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"clock time", c.Time}, {"clock base", c.Base}, {"clock ticks", c.Ticks}} {
		if !sane(f.v) {
			return bad(f.name, f.v, "a finite number, not negative")
		}
	}
	if !(c.Step >= 0 && c.Step <= MaxPeriod.Seconds()) {
		return bad("clock step", c.Step, fmt.Sprintf("a time step in seconds in [0, %v]", MaxPeriod.Seconds()))
	}
	for phase, f := range c.Fixed {
		if !sane(f[0]) || !sane(f[1]) {
			return bad("clock of phase "+phase, f, "a finite time and accumulator, not negative")
		}
	}
	return nil
}
