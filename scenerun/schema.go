package scenerun

import (
	"context"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/editorschema"
	"github.com/scenecs/scenecs/loader/scenefile"
)

const schemaUsage = `Usage: {prog} schema [-format json|xsd] [SCENE]

Prints a schema of the scene format that knows every registered component
and system, for editors to validate and complete scene files with:
  json  a JSON Schema (draft 2020-12) of the YAML spelling
  xsd   an XML Schema of the XML spelling
With SCENE, the schema also knows the components SCENE (and its includes)
declares in its components section.
See docs/editor-setup.md for hooking them into an editor.

Flags:
`

// cmdSchema implements "schema": it prints a JSON Schema or an XML Schema
// of the scene format for the program's registry, as the loader writes
// them (editorschema.WriteJSONSchema, editorschema.WriteXSD), with the declarations
// of SCENE if one is given.
func (c *cli) cmdSchema(ctx context.Context, args []string) error {
	fs := c.newFlags("schema", schemaUsage)
	format := fs.String("format", "json", "output `format`: json (JSON Schema of the YAML spelling) or xsd (XML Schema of the XML spelling)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("expected at most one SCENE, got %d arguments", fs.NArg())
	}
	if *format != "json" && *format != "xsd" {
		return usagef("unknown -format %q (want json or xsd)", *format)
	}
	rt, err := c.newRuntime(0)
	if err != nil {
		return err
	}
	var doc *scenefile.Document
	if path := fs.Arg(0); path != "" {
		if err := checkSceneFormat(path); err != nil {
			return err
		}
		// The whole scene is checked, so that a schema is never made from
		// declarations the loader would refuse.
		plan, err := loader.CheckFile(rt.reg, path, loadOptions(ctx))
		if err != nil {
			if ctx.Err() != nil {
				return c.interruptedError(path)
			}
			return err
		}
		doc = plan.Doc
	}
	if *format == "json" {
		return editorschema.WriteJSONSchema(c.stdout, rt.reg, doc)
	}
	return editorschema.WriteXSD(c.stdout, rt.reg, doc)
}
