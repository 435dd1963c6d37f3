// Package loader loads scene files into running Worlds: a scene written
// in YAML or XML (or a JSON dump) is read with its includes, checked
// against a [registry.Registry] and built into its World, all or
// nothing, in one call: [Load], [LoadFile], [LoadBytes]; [CheckFile]
// checks without building. Every problem is reported, not only the
// first, as a scenefile.ErrorList of "file:line:col: message" errors.
//
// That is the front door; the rooms behind it are packages of their own,
// which a program imports for the types they own (as go/parser's users
// import go/ast):
//
//   - loader/scenefile reads a file and its includes into a Document
//     (one model for the three spellings, a position on every node,
//     within Limits) and writes one back (WriteYAML, WriteXML).
//   - loader/plan compiles a Document against a registry into a Plan,
//     which cannot fail to build: every component and value checked,
//     mixins, declarations and prefabs' costs worked out first.
//   - loader/live builds a Plan into a World (a Scene), and keeps it in
//     step with its files: hot reload (Reloader, Diff, Scene.Apply) and
//     save-back (Saver).
//   - loader/export writes a World back as a Document or a JSON dump,
//     and names entities by path (EntityPath).
//   - loader/editorschema describes the format for editors (JSON Schema,
//     XSD).
//
// Watching files is not the loader's job: package
// [github.com/scenecs/scenecs/watch] reports saves. The syntax of the
// formats lives under loader/internal: the YAML parser (yamlsyntax), the
// XML scanner (xmltok) and the line and column arithmetic (textpos). The
// format of scene files is documented in docs/scene-format.md, hot
// reload in docs/hot-reload.md, and the choice of a front door over
// aliases of every layer in docs/architecture.md.
package loader
