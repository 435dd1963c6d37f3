package rooms

import (
	"fmt"
	"io/fs"
	"regexp"
)

// DefaultHz is a room's tick rate when its Spec gives none.
const DefaultHz = 30

// MaxHz bounds a room's tick rate.
const MaxHz = 1000

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
	// time (the fixed step is 1/Hz): in (0, MaxHz]. Zero means DefaultHz.
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
	if s.Hz == 0 {
		s.Hz = DefaultHz
	}
	if !(s.Hz > 0 && s.Hz <= MaxHz) {
		return fmt.Errorf("room %s: tick rate %v: want a rate in (0, %d]", s.ID, s.Hz, MaxHz)
	}
	switch {
	case s.Snapshot != nil:
		if len(s.Snapshot.Dump) == 0 {
			return fmt.Errorf("room %s: the snapshot holds no dump", s.ID)
		}
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
