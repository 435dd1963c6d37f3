// Package rooms runs many scenes in one process: each room is a World
// with its own Registry, built-ins and inspector, ticked at its own rate
// on a goroutine of its own. Rooms share no mutable state, so one that
// panics or fails a tick is stopped and reported while the others run on;
// one whose tick does not come back is given up as hung ([ErrHung]).
// A host takes at most [HostOptions].MaxRooms rooms, each of at most
// [HostOptions].MaxEntities entities, and rates of at least one tick a
// day ([CheckRate]).
//
// # Outline
//
//   - [Host] holds the rooms of a process: [Host.Create] loads a scene
//     (a file of an fs.FS, or a scene or dump held in memory) into a new
//     room described by a [Spec] and starts it; [Host.Stop] stops one;
//     [Host.Rooms] lists them; [Host.Close] stops them all.
//     [HostOptions.OnStop] hears of every room that stops, with the
//     reason (nil when asked to stop). A room busy in one tick for
//     longer than [HostOptions].HangAfter, or that does not stop when
//     asked, is given up: reported with [ErrHung], no longer listed,
//     its goroutine left to run unseen ([Host.Hung] counts them).
//   - [Room] is one running room. Everything that touches its World runs
//     on the room's goroutine between ticks: [Room.Do] runs a function
//     there, [Room.ServeHTTP] answers the inspection API (docs/inspector.md)
//     through the room's own inspector, [Room.Snapshot] takes a
//     [Snapshot] (the dump, which loads back as a scene, plus the tick,
//     the scene time and the spawners' random streams) that
//     [Spec.Snapshot] resumes from, once [Snapshot.Check] finds its
//     fields sane.
//
// Package github.com/scenecs/scenecs/rooms/fleet puts hosts on NATS: a
// fleet of hosts, rooms placed on them by request, reached by id from
// anywhere, and resumed on another host when theirs dies. See
// docs/rooms.md.
package rooms
