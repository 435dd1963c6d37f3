package loader

import (
	"io"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/editorschema"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// A World back into a scene file, from package export.
type (
	// ExportOptions is [export.Options].
	ExportOptions = export.Options
	// DumpEntity is [export.DumpEntity].
	DumpEntity = export.DumpEntity
	// DumpCapture is [export.DumpCapture].
	DumpCapture = export.DumpCapture
	// JSONCapture is [export.JSONCapture].
	JSONCapture = export.JSONCapture
	// Namer is [export.Namer].
	Namer = export.Namer
)

// Export is [export.Export].
func Export(reg *registry.Registry, opt ExportOptions) *Document { return export.Export(reg, opt) }

// WriteJSON is [export.WriteJSON].
func WriteJSON(out interface{ Write([]byte) (int, error) }, reg *registry.Registry, opt ExportOptions) error {
	return export.WriteJSON(out, reg, opt)
}

// DumpEntities is [export.DumpEntities].
func DumpEntities(reg *registry.Registry, es []ecs.Entity) []*DumpEntity {
	return export.DumpEntities(reg, es)
}

// NewDumpCapture is [export.NewDumpCapture].
func NewDumpCapture(reg *registry.Registry, es []ecs.Entity) *DumpCapture {
	return export.NewDumpCapture(reg, es)
}

// NewJSONCapture is [export.NewJSONCapture].
func NewJSONCapture(reg *registry.Registry, opt ExportOptions) *JSONCapture {
	return export.NewJSONCapture(reg, opt)
}

// EntityPath is [export.EntityPath].
func EntityPath(reg *registry.Registry, e ecs.Entity) string { return export.EntityPath(reg, e) }

// EntityPaths is [export.EntityPaths].
func EntityPaths(reg *registry.Registry, es []ecs.Entity) []string {
	return export.EntityPaths(reg, es)
}

// NewNamer is [export.NewNamer].
func NewNamer(reg *registry.Registry) *Namer { return export.NewNamer(reg) }

// WriteJSONSchema is [editorschema.WriteJSONSchema].
func WriteJSONSchema(w io.Writer, reg *registry.Registry, doc *Document) error {
	return editorschema.WriteJSONSchema(w, reg, doc)
}

// WriteXSD is [editorschema.WriteXSD].
func WriteXSD(w io.Writer, reg *registry.Registry, doc *Document) error {
	return editorschema.WriteXSD(w, reg, doc)
}
