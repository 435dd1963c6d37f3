// Package inspect serves a running scene over HTTP: its live state as
// JSON, selector queries, component schemas, changes to entities and
// components through the same attribute parser and hooks as scene files,
// pause, play and step, a stream of events (tick statistics, hot reloads
// with their per-property diffs, changes made through the API), and a web
// page, embedded in the binary, that shows it all.
//
// # Outline
//
//   - Serving: [New] makes an [Inspector] for a [registry.Registry],
//     configured by [Options]. An Inspector is an [http.Handler]
//     ([Inspector.ServeHTTP]): a program mounts it on its own server
//     (under a prefix with [http.StripPrefix]) or starts it on its own
//     with [Inspector.Listen], which returns the URL to open.
//     [Inspector.Close] stops it.
//   - The simulation goroutine: the World is not safe for concurrent use,
//     so HTTP goroutines never touch it. Each request becomes a work item
//     on a bounded queue ([Options.MaxQueue]), and the goroutine that runs
//     the simulation serves the queue between ticks by calling
//     [Inspector.Drain], or [Inspector.Tick], which drains and then ticks
//     the Registry. Drain spends at most [Options.Budget] per call and
//     [Options.Share] of wall time serving requests, and large answers are
//     made in slices across calls and formatted off the simulation
//     goroutine, so a flood of requests slows the answers, not the
//     simulation; [Inspector.DrainUntil] serves a loop's spare time before
//     its next tick, and [Inspector.Wake] tells a loop that sleeps between
//     ticks that a request is waiting.
//   - Pause, play and step: a program that ticks the Registry itself asks
//     [Inspector.ShouldTick] whether to tick and reports each tick's
//     duration to [Inspector.Observe]; [Inspector.Stats] returns the tick
//     statistics ([Stats], [Percentiles]) the page plots.
//   - Hot reload: [Inspector.Reloaded] publishes a reload's diff, or its
//     errors, to the event streams. With [Options.Reloader], changes made
//     with ?save=1 are also written into the scene's files.
//   - Changes: every change made through the API (and every line
//     [Inspector.Apply] replays) is a command of package editor, made
//     on the simulation goroutine by the Inspector's [editor.Editor],
//     which saves it into the scene's files, keeps the history that
//     undoes it (bounded by [Options.MaxHistoryBytes]) and writes the
//     journal ([Options.Journal], [JournalLine]).
//   - Safety: requests that change anything need the run's token
//     ([Options.Token], [Inspector.Token]); requests whose Host or Origin
//     is not the server's own (or one of [Options.Hosts]) are refused,
//     by [Inspector.ServeHTTP] before any endpoint is reached.
//
// See docs/inspector.md for the whole contract: the endpoints, their JSON
// and the events.
package inspect
