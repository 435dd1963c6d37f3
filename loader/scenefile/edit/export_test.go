package edit

// The editor's rules of YAML and attribute strings, for the tests of
// package edit_test.
var (
	YAMLPlainOK   = yamlPlainOK
	YAMLSingleOK  = yamlSingleOK
	YAMLPrintable = yamlPrintable
	IsAttrSpace   = isAttrSpace
	IsFoldSpace   = isFoldSpace
)
