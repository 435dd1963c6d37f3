package fleet

import (
	"crypto/rand"
	"encoding/hex"
	"io/fs"
	"os"
	"time"

	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/rooms"
	"github.com/scenecs/scenecs/scenes"
)

// Options configure a Host. Zero fields take defaults.
type Options struct {
	// ID names the host: letters, digits, '-' and '_'. Default: the
	// machine's name and a random suffix.
	ID string
	// Prefix starts every subject and bucket name. Default "scenecs".
	Prefix string
	// Scenes is where a create request's scene name is read (with its
	// includes). Default: the embedded scenes of package scenes.
	Scenes fs.FS
	// Rooms configures the host's rooms: the program's own components
	// (Register), the most rooms the host takes (MaxRooms), each room's
	// entity budget (MaxEntities), how long a tick may run before its
	// room is given up as hung (HangAfter). Its OnStop and OnTick are
	// called after the fleet's own.
	Rooms rooms.HostOptions
	// Heartbeat is how often the host says it is alive, and looks for
	// rooms to claim. Default 1 s.
	Heartbeat time.Duration
	// DeadAfter is how long a host that stopped beating counts as alive.
	// Default 3 s (3 heartbeats).
	DeadAfter time.Duration
	// SnapshotEvery is how often each room's snapshot is written: at most
	// this much of a room is lost with its host. Default 2 s.
	SnapshotEvery time.Duration
	// StateEvery publishes a room's State every this many ticks; default
	// 1 (every tick), negative for never.
	StateEvery int
	// State, if not nil, adds what it returns to the published State (as
	// its "data"), read on the room's goroutine after the tick.
	State func(r *rooms.Room, reg *registry.Registry) any
	// Timeout bounds each NATS and JetStream call. Default 5 s.
	Timeout time.Duration
	// Inspect, if not empty, is the URL of the host's own page (without
	// its token), which its heartbeats publish for the other hosts' pages
	// to link to.
	Inspect string
	// Replicas is the number of copies JetStream keeps of the directory,
	// the hosts' heartbeats and the snapshots: 1 (the default) on one
	// server, 3 on a cluster of three or more. Every host of a fleet
	// should give the same.
	Replicas int
	// Probation is how long a room started on a host (created, or
	// resumed from its snapshot) is on trial: a room whose host dies, or
	// that fails, before it has run this long on it counts a failed
	// start (Entry.Failures). Default 30 s.
	Probation time.Duration
	// MaxFailures is how many failed starts in a row put a room in
	// quarantine: stopped, resumed by no host until an operator says so
	// (Client.Resume). A room that stops its hosts one after the other
	// (it crashes or hangs them) goes no further. Default 3.
	MaxFailures int
	// Logf, if not nil, hears one line for each room the host takes over
	// from another, loses to another, quarantines (a room given up as
	// hung among them), or releases from quarantine or destroys for an
	// operator.
	Logf func(format string, args ...any)
}

func (o *Options) defaults() {
	if o.ID == "" {
		name, _ := os.Hostname()
		if rooms.CheckID(name) != nil {
			name = "host"
		}
		var b [3]byte
		_, _ = rand.Read(b[:])
		o.ID = name + "-" + hex.EncodeToString(b[:])
	}
	if o.Prefix == "" {
		o.Prefix = "scenecs"
	}
	if o.Scenes == nil {
		o.Scenes = scenes.FS
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = time.Second
	}
	if o.DeadAfter <= 0 {
		o.DeadAfter = 3 * o.Heartbeat
	}
	if o.SnapshotEvery <= 0 {
		o.SnapshotEvery = 2 * time.Second
	}
	if o.StateEvery == 0 {
		o.StateEvery = 1
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Probation <= 0 {
		o.Probation = 30 * time.Second
	}
	if o.MaxFailures <= 0 {
		o.MaxFailures = 3
	}
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
}

// names are the subjects and buckets of a prefix.
type names struct {
	create, hostCreate, room, state    string // state and room: + id
	resume, destroy, control           string // control: + a unique token
	roomsKV, hostsKV, snapshots, queue string
}

func namesOf(prefix string) names {
	return names{
		create:     prefix + ".rooms.create",
		resume:     prefix + ".rooms.resume",
		destroy:    prefix + ".rooms.destroy",
		control:    prefix + ".control.",
		hostCreate: prefix + ".host.",
		room:       prefix + ".room.",
		state:      prefix + ".state.",
		roomsKV:    prefix + "_rooms",
		hostsKV:    prefix + "_hosts",
		snapshots:  prefix + "_snapshots",
		queue:      prefix + ".hosts",
	}
}
