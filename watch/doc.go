// Package watch reports saves of a set of files, the way editors make
// them: a save is reported as soon as it is whole (a few milliseconds
// after its last write), one caught half written is waited for, a burst
// of writes is one save, a save that renames a temporary
// file over the target is seen, a directory that vanishes and comes back
// is watched again, and a file that cannot be read for a while (a named
// pipe put in its place, permissions) is waited for without blocking.
// It works on file system events (fsnotify), or by polling on file
// systems that deliver none.
//
// # Outline
//
//   - Watching: [New] starts a [Watcher] on a set of files until its
//     context ends ([Watcher.Done]); their contents then are the baseline.
//     [Options] set the quiet time of a save that looks whole
//     ([Options.Settle], 5 ms) and what whole means to the files' user
//     ([Options.Complete]: a scene parses), the wait of one that does not
//     ([Options.Debounce], 50 ms, capped by [Options.MaxDelay]), polling
//     instead of events ([Options.Poll]) and the largest file
//     ([Options.MaxBytes]).
//   - Saves: each save judged (quiet for Settle and whole, or quiet for
//     Debounce) that changes a file's content sends the changed files on
//     [Watcher.Changes]; saves not yet received are merged into the next
//     value, so the event loop never blocks on its reader.
//   - Contents: [Watcher.Snapshot] returns the bytes of the last save of
//     each file (or its baseline) as a [Snapshot], exactly what was judged
//     a save, so that a reload parses those bytes rather than a second
//     read an editor may have truncated meanwhile.
//   - The set of files: [Watcher.SetFiles] replaces it (after a reload
//     changed a scene's includes), [Watcher.SetFilesFrom] with the
//     baseline of new files taken from a snapshot.
//   - Errors: [Watcher.Errors] receives the underlying watcher's errors
//     and a [*FileError] for each file that exists but cannot be read
//     ([ErrNotRegular], [ErrTooLarge], a permission error); such a file is
//     waited for and read again until it can be.
//
// Hot reload is its user: scene-run watches a scene's files with a
// Watcher and hands each save's bytes to the loader's Reloader. The
// package knows nothing of scenes, and the loader does not import it, so
// that reading a scene does not pull in fsnotify; a Snapshot converts to
// the loader's Snapshot (both are map[string][]byte).
package watch
