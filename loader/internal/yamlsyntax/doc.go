// Package yamlsyntax parses the YAML that scene files are written in into
// a light syntax tree of [Node]s with 1-based lines and character
// columns. It knows YAML, not scenes: what the keys mean is the loader's
// business.
//
// [Parse] is a hand-written parser for block mappings and sequences
// (compact ones included), flow mappings and sequences over any number of
// lines, plain scalars over several lines, single- and double-quoted
// scalars with escapes and folding, block scalars, comments, a leading
// "---" and a byte order mark. That is nearly every scene; the rest
// (anchors, aliases and tags, which the loader refuses anyway, explicit
// keys, directives, several documents, tabs used as indentation, ...)
// makes it give up with [Unsupported], and [ParseReference] reads the
// file with gopkg.in/yaml.v3 instead. yaml.v3 is the reference: wherever
// Parse accepts an input, yaml.v3 gives the same tree, and wherever Parse
// reports an error, yaml.v3 refuses the input too (FuzzFastPath checks
// both).
//
// Parse exists for three reasons. yaml.v3 is slow for 100,000-entity
// scenes (BenchmarkFastPath measures both on the same input: see
// docs/architecture.md for the figures). yaml.v3 reports a syntax error
// at the line of the construct that encloses the mistake (a mis-indented
// list item on line 4 is "line 1"), without a column, and invalid bytes
// always at the top of the file: Parse reports the offset of the
// offending byte. And with a [Sink] it hands the pairs of the root
// mapping, and the items of a list such as a scene's entities, to the
// reader one at a time, reusing the memory of each item's tree for the
// next, so that reading a large scene keeps what the reader builds, not a
// syntax tree of the whole file.
//
// Every node Parse builds has its byte span in the input (Node.Off,
// Node.End), and [DecodeScalar] decodes a scalar's span again with the
// parser's own code, giving for each byte of the text the offset that
// wrote it (through escapes, doubled quotes and folded lines): what the
// loader needs to place an error inside a value, and the save-back
// editor to rewrite one property inside a value, without a second
// reading of YAML of its own.
package yamlsyntax
