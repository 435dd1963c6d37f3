// Package edit changes a scene file's text with the fewest bytes, so that
// a save from the inspector (save-back) leaves everything the user did
// not change where it was: comments, spacing, key order, quoting style,
// the other properties of an attribute string.
//
// Each function takes the file's bytes and the [scenefile.EntitySpec] the
// reader made of them (whose spans say where every key and value is
// written) and returns the new bytes:
//
//   - components: [SetComponent] sets properties of one component where
//     the file writes them (one property inside an attribute string is
//     rewritten at its own bytes), [RemoveComponent] takes one out,
//     [DropProperty] one property of it, [SetPrefabComponent] edits a
//     prefab's body;
//   - structure: [RemoveEntity], [InsertEntity] and [MoveEntity] take out,
//     put in and move an entity's whole block (lines, children, comments),
//     re-indented; [AddPrefab] writes a prefab variant.
//
// The YAML editor works on the tree of the module's own YAML parser, the
// XML editor on the entity's start tag as the XML scanner reads it;
// attribute strings are cut by the same cutter the schema's parser uses
// (internal/attrtext). Neither reads YAML or XML of its own. Every edit is
// read back and must say what the file said but for the change asked
// ([Verify]); otherwise it fails with [ErrCannotEdit] and returns nothing.
// Which running entity and which file an edit concerns, and how it is
// committed, is the business of loader/live's Saver.
package edit
