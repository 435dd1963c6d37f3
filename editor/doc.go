// Package editor changes a running scene on behalf of a tool, and undoes
// what it changed: what does an edit do to the running scene and its
// file, and how is it undone? It knows no HTTP (package inspect serves
// it over HTTP, and scene-run replay feeds it a journal); like the World
// it edits, it is used on the goroutine that runs the simulation only.
//
// # Outline
//
//   - Commands: [Set], [Remove], [Create], [Destroy], [Clone],
//     [Reparent], [Emit], [Revert], [ApplyPrefab], [Variant], [Undo] and
//     [Redo] are the typed [Command] values; [Decode] makes one from a
//     journal [Line], and each gives its Line back.
//   - Applying: [New] makes an [Editor] for a [registry.Registry],
//     configured by [Options]. [Editor.Apply] is the one way a command
//     is made: it checks the command against the World, runs it through
//     one transaction (the file's edit prepared through the scene's
//     [live.Saver], the World changed, the edit committed, the World
//     rolled back if the commit fails), publishes what changed
//     ([Change], [Sent]), records it in the history with what it
//     replaced, and writes its line into the journal ([Options.Journal]).
//     A refusal is an [*Error] of a [Kind], with nothing changed.
//   - The history: every command but undo and redo is an [Entry] that
//     knows how to undo and redo itself (putting values back, making
//     entities again from snapshots, moving them back, swapping a saved
//     file's bytes back). [Editor.History] lists it as a [History]; it
//     keeps at most [Options.MaxHistory] entries and
//     [Options.MaxHistoryBytes] of what they hold, dropping the oldest.
//     [Editor.Reloaded] clears it when a hot reload changed the scene.
//   - Entity references: [Resolve] finds the entity a reference names
//     (an id, "#id", a path such as ship/0, a handle); [Label] and
//     [Labels] name entities as events do.
package editor
