// Package fleet runs rooms (package rooms) on a fleet of hosts joined by
// NATS. NATS carries everything between machines; this package adds no
// membership or consensus of its own.
//
// # Subjects and buckets
//
// With the default prefix "scenecs":
//
//   - scenecs.rooms.create: a request to create a room ([CreateRequest]),
//     served by the hosts' queue group "scenecs.hosts", so NATS spreads
//     requests over the hosts; the host that gets one places the room on
//     the host with the fewest rooms (itself, or another through
//     scenecs.host.ID.create).
//   - scenecs.rooms.resume and scenecs.rooms.destroy (the queue group
//     too): an operator's request, the room's id as the payload, to
//     lift a room's quarantine ([Client.Resume]) or destroy a room no
//     host runs ([Client.Destroy]).
//   - scenecs.control.TOKEN: the control subject of one answer of the
//     verb serve (below), served by the room's host.
//   - scenecs.room.ID.VERB: a request to room ID, answered by the host
//     running it with the inspection API's JSON (docs/inspector.md), the
//     HTTP status in the header "Status". Verbs: scene, query, get, set,
//     emit, step, pause, play, stats, components, info, snapshot,
//     destroy, http (any request of the API, in one message), and serve
//     (any request, streams and answers larger than a message included,
//     in numbered parts to the asker's inbox with acknowledgements and
//     keep-alives both ways: see serve.go and [Proxy], which serves any
//     room's API over HTTP through it). A message without a reply
//     subject is applied and not answered: a client's input.
//   - scenecs.state.ID: the room's state ([State]) published after its
//     ticks, for clients to follow.
//   - JetStream key-value bucket scenecs_rooms: the directory, room id to
//     [Entry] (its host, scene, rate, the tick of its last snapshot, its
//     trial, failed starts and quarantine).
//     Changes of ownership are compare-and-set on an entry's revision:
//     exactly one host owns a room.
//   - Key-value bucket scenecs_hosts: one key per live host, put at every
//     heartbeat and expiring after Options.DeadAfter without one. A
//     host's liveness is read key by key, never from a
//     listing alone.
//   - Object store scenecs_snapshots: each room's last [rooms.Snapshot].
//
// # Failover
//
// Every heartbeat, each host looks for rooms whose host's last heartbeat
// is older than Options.DeadAfter (dead), or is empty (left), or is this
// host without running the room (restarted): it claims its share of
// them by compare-and-set and resumes each from its last snapshot. What a
// room did after its last snapshot is lost: at most one snapshot
// interval of ticks, and the changes and inputs of that interval. A host
// that finds a room of its own claimed by another (it was cut off) stops
// its copy.
//
// # Rooms that bring hosts down
//
// A room started on a host (created, or resumed) is on trial for
// Options.Probation. A host that dies while a room is on trial counts a
// failed start in its entry; at Options.MaxFailures failed starts in a
// row the next host quarantines it instead of resuming it (and dying in
// turn). A room that fails on its own (a panic, a failed tick, given up
// as hung, a snapshot that does not check or load) is quarantined at
// once. A quarantined room is stopped and listed with why, and resumed
// by no host until an operator resumes it ([Client.Resume]).
//
// # Security
//
// Who may do what is NATS's: users and permissions on the subjects and
// buckets above (docs/scale.md has the blocks for hosts, operators and
// observers). [StartServer] starts a server in this process from a
// nats-server configuration file, and refuses one that would listen
// beyond loopback without authorization. A host refuses an id a live
// host beats under ([ErrHostIDTaken]).
package fleet
