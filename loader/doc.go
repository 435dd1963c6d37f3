// Package loader turns scene files into running Worlds and back: it reads
// scenes written in YAML or XML (and the JSON dumps it writes), checks
// them against a [registry.Registry], builds the entities, keeps them in
// step with the file on every save (hot reload), and writes a World's
// state out again as a scene.
//
// A load goes through three stages, each of which a program may also call
// by itself:
//
//   - [ReadFile] (or [Read], [ReadYAML], [ReadXML], [ReadJSON] for one
//     file in memory) reads a file and its includes into a [Document]:
//     one model for all three spellings, with a [Pos] (file, line and
//     character column) on every node. Readers check syntax and structure
//     only, within [Limits].
//   - [Compile] checks a Document against a registry: every component and
//     system is known, every value parses, mixins and declarations make
//     sense, and what its prefabs' instances would make fits the Limits
//     it was read with (worked out before anything is expanded). Its
//     result, a [Plan], cannot fail to build.
//   - [Build] declares the scene's components, defines its mixins,
//     configures systems and creates the entities, returning a [Scene]
//     that maps the Plan's nodes to entities.
//
// [Load], [LoadFile] and [LoadBytes] do all three. Every problem a stage
// finds is reported, not only the first, as an [ErrorList] of positioned
// [Error] values, each "file:line:col: message"; a load is all or nothing.
//
// Hot reload compiles the new file to a Plan, computes a [Diff] against
// the running one ([Scene.Diff]) and applies it in phases
// ([Scene.Apply]), or does both ([Scene.Reload]); a [Reloader] reads a
// scene's files once per reload and guards against half-written saves.
// Watching files is not the loader's job: package
// [github.com/scenecs/scenecs/watch] reports saves as snapshots that
// convert to a [Snapshot].
//
// [Export] writes a World's state (or a subtree) as a Document, which
// [WriteYAML] and [WriteXML] print; [WriteJSON] writes the JSON dump, and
// [WriteJSONSchema] and [WriteXSD] describe the scene format for editors.
//
// The syntax of the formats lives in packages of its own under
// loader/internal: the YAML parser (yamlsyntax), the XML scanner (xmltok)
// and the line and column arithmetic (textpos). The format of scene files
// is documented in docs/scene-format.md, hot reload in docs/hot-reload.md.
package loader
