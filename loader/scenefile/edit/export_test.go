package edit

import "github.com/scenecs/scenecs/loader/internal/yamlsyntax"

// The editor's rules of YAML and attribute strings, for the tests of
// package edit_test.
var (
	YAMLPlainOK   = yamlPlainOK
	YAMLSingleOK  = yamlsyntax.SingleQuotable
	YAMLPrintable = yamlsyntax.Printable
	IsAttrSpace   = isAttrSpace
	IsFoldSpace   = isFoldSpace
)
