package main

import (
	"io"

	"github.com/scenecs/scenecs/loader"
)

const schemaUsage = `Usage: scene-run schema [-format json|xsd]

Prints a schema of the scene format that knows every registered component
and system, for editors to validate and complete scene files with:
  json  a JSON Schema (draft 2020-12) of the YAML spelling
  xsd   an XML Schema of the XML spelling
See docs/editor-setup.md for hooking them into an editor.

`

// cmdSchema implements "scene-run schema": it prints a JSON Schema or an
// XML Schema of the scene format for the built-in registry, as the loader
// writes them (loader.WriteJSONSchema, loader.WriteXSD).
func cmdSchema(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("schema", schemaUsage, stderr)
	format := fs.String("format", "json", "output `format`: json (JSON Schema of the YAML spelling) or xsd (XML Schema of the XML spelling)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("takes no arguments")
	}
	if *format != "json" && *format != "xsd" {
		return usagef("unknown -format %q (want json or xsd)", *format)
	}
	rt, err := newRuntime(0)
	if err != nil {
		return err
	}
	if *format == "json" {
		return loader.WriteJSONSchema(stdout, rt.reg, nil)
	}
	return loader.WriteXSD(stdout, rt.reg, nil)
}
