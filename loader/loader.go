package loader

import (
	"io"
	"io/fs"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader/editorschema"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Loading a scene into a World, and keeping it there (package live).

// Options configure loading and reloading: [live.Options].
type Options = live.Options

// Scene is a loaded scene: [live.Scene].
type Scene = live.Scene

// Load reads the scene file name from fsys (with its includes), checks it
// against reg and builds it into reg's World; see [live.Load].
func Load(reg *registry.Registry, fsys fs.FS, name string, opt Options) (*Scene, error) {
	return live.Load(reg, fsys, name, opt)
}

// LoadFile is [Load] for a file of the operating system: see
// [live.LoadFile].
func LoadFile(reg *registry.Registry, file string, opt Options) (*Scene, error) {
	return live.LoadFile(reg, file, opt)
}

// LoadBytes loads a scene from memory: see [live.LoadBytes].
func LoadBytes(reg *registry.Registry, name string, data []byte, opt Options) (*Scene, error) {
	return live.LoadBytes(reg, name, data, opt)
}

// CheckFile reads and checks a scene file without building it: see
// [live.CheckFile].
func CheckFile(reg *registry.Registry, file string, opt Options) (*Plan, error) {
	return live.CheckFile(reg, file, opt)
}

// PlanCache keeps compiled plans for loads of the same files: see
// [live.PlanCache] and [Options].Plans.
type PlanCache = live.PlanCache

// NewPlanCache returns an empty [PlanCache].
func NewPlanCache() *PlanCache { return live.NewPlanCache() }

// Build builds a compiled scene into reg's World: see [live.Build].
func Build(p *Plan, reg *registry.Registry) (*Scene, error) { return live.Build(p, reg) }

// Hot reload and saving back (package live).

// Reloader reloads a scene file into its running [Scene]:
// [live.Reloader].
type Reloader = live.Reloader

// Diff is what a reload changes in a running scene: [live.Diff].
type Diff = live.Diff

// DiffEntry is one change of a [Diff], as the inspector and scene-run
// print it: [live.DiffEntry].
type DiffEntry = live.DiffEntry

// Saver saves changes made at run time into a running scene's files:
// [live.Saver].
type Saver = live.Saver

// SaveEdit is a prepared change of a scene file: [live.SaveEdit].
type SaveEdit = live.SaveEdit

// NewSaver returns the Saver of the files r reloads: see [live.NewSaver].
func NewSaver(r *Reloader) *Saver { return live.NewSaver(r) }

// Errors of reloads and saves; match them with errors.Is (see package
// live).
var (
	ErrUnsettled   = live.ErrUnsettled
	ErrNoSource    = live.ErrNoSource
	ErrFromMixin   = live.ErrFromMixin
	ErrFromPrefab  = live.ErrFromPrefab
	ErrFileChanged = live.ErrFileChanged
	ErrCannotEdit  = live.ErrCannotEdit
	ErrNotUndone   = live.ErrNotUndone
	ErrReadOnly    = live.ErrReadOnly
)

// What a scene file says (package scenefile).

// Document is one scene as read from a file: [scenefile.Document].
type Document = scenefile.Document

// Limits bound what a read may use: [scenefile.Limits].
type Limits = scenefile.Limits

// DefaultLimits returns the limits used for zero fields: see
// [scenefile.DefaultLimits].
func DefaultLimits() Limits { return scenefile.DefaultLimits() }

// ErrorList is the positioned errors of a load: [scenefile.ErrorList].
type ErrorList = scenefile.ErrorList

// Error is one positioned error of a load (file:line:col: message):
// [scenefile.Error].
type Error = scenefile.Error

// Pos is a position in a scene file: [scenefile.Pos].
type Pos = scenefile.Pos

// Snapshot holds the contents of scene files by absolute path:
// [scenefile.Snapshot].
type Snapshot = scenefile.Snapshot

// Format is a scene file format: [scenefile.Format].
type Format = scenefile.Format

// The formats of scene files.
const (
	FormatUnknown = scenefile.FormatUnknown
	FormatYAML    = scenefile.FormatYAML
	FormatXML     = scenefile.FormatXML
	FormatJSON    = scenefile.FormatJSON
)

// FormatOf returns the format of a file name by its extension: see
// [scenefile.FormatOf].
func FormatOf(file string) Format { return scenefile.FormatOf(file) }

// Read reads one scene document from memory: see [scenefile.Read].
func Read(file string, data []byte, lim Limits) (*Document, error) {
	return scenefile.Read(file, data, lim)
}

// ReadFile reads a scene file and its includes: see [scenefile.ReadFile].
func ReadFile(fsys fs.FS, name string, lim Limits) (*Document, error) {
	return scenefile.ReadFile(fsys, name, lim)
}

// WriteYAML writes a Document as YAML: see [scenefile.WriteYAML].
func WriteYAML(w io.Writer, doc *Document) error { return scenefile.WriteYAML(w, doc) }

// WriteXML writes a Document as XML: see [scenefile.WriteXML].
func WriteXML(w io.Writer, doc *Document) error { return scenefile.WriteXML(w, doc) }

// A scene checked against a registry (package plan).

// Plan is a scene document validated against a registry: [plan.Plan].
type Plan = plan.Plan

// Compile validates doc against reg: see [plan.Compile].
func Compile(doc *Document, reg *registry.Registry) (*Plan, error) {
	return plan.Compile(doc, reg, plan.Options{})
}

// A World back into a scene file (package export).

// ExportOptions choose what [Export] writes: [export.Options].
type ExportOptions = export.Options

// JSONCapture is [WriteJSON] in steps: the values copied on the World's
// goroutine, the dump written from the copy on any goroutine; see
// [export.JSONCapture].
type JSONCapture = export.JSONCapture

// NewJSONCapture starts a capture of the dump [WriteJSON] would write:
// see [export.NewJSONCapture].
func NewJSONCapture(reg *registry.Registry, opt ExportOptions) *JSONCapture {
	return export.NewJSONCapture(reg, opt)
}

// Export writes a World's state as a Document: see [export.Export].
func Export(reg *registry.Registry, opt ExportOptions) *Document { return export.Export(reg, opt) }

// WriteJSON writes a World as a JSON dump: see [export.WriteJSON].
func WriteJSON(out interface{ Write([]byte) (int, error) }, reg *registry.Registry, opt ExportOptions) error {
	return export.WriteJSON(out, reg, opt)
}

// DumpEntities returns the dump form of entities: see
// [export.DumpEntities].
func DumpEntities(reg *registry.Registry, es []ecs.Entity) []*export.DumpEntity {
	return export.DumpEntities(reg, es)
}

// EntityPath returns the path that names e in dumps: see
// [export.EntityPath].
func EntityPath(reg *registry.Registry, e ecs.Entity) string { return export.EntityPath(reg, e) }

// EntityPaths returns the paths of es: see [export.EntityPaths].
func EntityPaths(reg *registry.Registry, es []ecs.Entity) []string {
	return export.EntityPaths(reg, es)
}

// The scene format for editors (package editorschema).

// WriteJSONSchema writes the JSON Schema of the YAML spelling: see
// [editorschema.WriteJSONSchema].
func WriteJSONSchema(w io.Writer, reg *registry.Registry, doc *Document) error {
	return editorschema.WriteJSONSchema(w, reg, doc)
}

// WriteXSD writes the XML Schema of the XML spelling: see
// [editorschema.WriteXSD].
func WriteXSD(w io.Writer, reg *registry.Registry, doc *Document) error {
	return editorschema.WriteXSD(w, reg, doc)
}
