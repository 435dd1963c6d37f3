package loader

import (
	"io"
	"io/fs"

	"github.com/scenecs/scenecs/loader/scenefile"
)

// The scene model and reading, from package scenefile.
type (
	// Document is [scenefile.Document].
	Document = scenefile.Document
	// EntitySpec is [scenefile.EntitySpec].
	EntitySpec = scenefile.EntitySpec
	// InstanceSpec is [scenefile.InstanceSpec].
	InstanceSpec = scenefile.InstanceSpec
	// PrefabSpec is [scenefile.PrefabSpec].
	PrefabSpec = scenefile.PrefabSpec
	// PartSpec is [scenefile.PartSpec].
	PartSpec = scenefile.PartSpec
	// ComponentSpec is [scenefile.ComponentSpec].
	ComponentSpec = scenefile.ComponentSpec
	// KV is [scenefile.KV].
	KV = scenefile.KV
	// MixinSpec is [scenefile.MixinSpec].
	MixinSpec = scenefile.MixinSpec
	// Include is [scenefile.Include].
	Include = scenefile.Include
	// Decl is [scenefile.Decl].
	Decl = scenefile.Decl
	// PropDecl is [scenefile.PropDecl].
	PropDecl = scenefile.PropDecl
	// ValueKind is [scenefile.ValueKind].
	ValueKind = scenefile.ValueKind
	// Pos is [scenefile.Pos].
	Pos = scenefile.Pos
	// Error is [scenefile.Error].
	Error = scenefile.Error
	// ErrorList is [scenefile.ErrorList].
	ErrorList = scenefile.ErrorList
	// Limits is [scenefile.Limits].
	Limits = scenefile.Limits
	// Format is [scenefile.Format].
	Format = scenefile.Format
	// Snapshot is [scenefile.Snapshot].
	Snapshot = scenefile.Snapshot
)

// The values of [ValueKind] and [Format].
const (
	ValueEmpty = scenefile.ValueEmpty
	ValueText  = scenefile.ValueText
	ValueMap   = scenefile.ValueMap

	FormatUnknown = scenefile.FormatUnknown
	FormatYAML    = scenefile.FormatYAML
	FormatXML     = scenefile.FormatXML
	FormatJSON    = scenefile.FormatJSON
)

// Errors of reading scene files.
var (
	// ErrNotRegular is [scenefile.ErrNotRegular].
	ErrNotRegular = scenefile.ErrNotRegular
	// ErrOutsideRoot is [scenefile.ErrOutsideRoot].
	ErrOutsideRoot = scenefile.ErrOutsideRoot
)

// DefaultLimits is [scenefile.DefaultLimits].
func DefaultLimits() Limits { return scenefile.DefaultLimits() }

// FormatOf is [scenefile.FormatOf].
func FormatOf(file string) Format { return scenefile.FormatOf(file) }

// Read is [scenefile.Read].
func Read(file string, data []byte, lim Limits) (*Document, error) {
	return scenefile.Read(file, data, lim)
}

// ReadFile is [scenefile.ReadFile].
func ReadFile(fsys fs.FS, name string, lim Limits) (*Document, error) {
	return scenefile.ReadFile(fsys, name, lim)
}

// ReadYAML is [scenefile.ReadYAML].
func ReadYAML(file string, data []byte, lim Limits) (*Document, error) {
	return scenefile.ReadYAML(file, data, lim)
}

// ReadXML is [scenefile.ReadXML].
func ReadXML(file string, data []byte, lim Limits) (*Document, error) {
	return scenefile.ReadXML(file, data, lim)
}

// ReadJSON is [scenefile.ReadJSON].
func ReadJSON(file string, data []byte, lim Limits) (*Document, error) {
	return scenefile.ReadJSON(file, data, lim)
}

// WriteYAML is [scenefile.WriteYAML].
func WriteYAML(w io.Writer, doc *Document) error { return scenefile.WriteYAML(w, doc) }

// WriteXML is [scenefile.WriteXML].
func WriteXML(w io.Writer, doc *Document) error { return scenefile.WriteXML(w, doc) }
