package loader

import (
	"context"
	"io/fs"

	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// The running scene, from package live.
type (
	// Scene is [live.Scene].
	Scene = live.Scene
	// Options is [live.Options].
	Options = live.Options
	// Diff is [live.Diff].
	Diff = live.Diff
	// Change is [live.Change].
	Change = live.Change
	// DiffEntry is [live.DiffEntry].
	DiffEntry = live.DiffEntry
	// DiffKind is [live.DiffKind].
	DiffKind = live.DiffKind
	// Reloader is [live.Reloader].
	Reloader = live.Reloader
	// Saver is [live.Saver].
	Saver = live.Saver
	// SaveEdit is [live.SaveEdit].
	SaveEdit = live.SaveEdit
)

// The kinds of [DiffEntry].
const (
	EntityCreated    = live.EntityCreated
	EntityDestroyed  = live.EntityDestroyed
	EntityMoved      = live.EntityMoved
	ComponentAdded   = live.ComponentAdded
	ComponentRemoved = live.ComponentRemoved
	PropertyChanged  = live.PropertyChanged
	ClassChanged     = live.ClassChanged
	SystemChanged    = live.SystemChanged
	DeclChanged      = live.DeclChanged
	MixinChanged     = live.MixinChanged
	PrefabChanged    = live.PrefabChanged
)

// Errors of reloads and saves; match them with errors.Is.
var (
	// ErrUnsettled is [live.ErrUnsettled].
	ErrUnsettled = live.ErrUnsettled
	// ErrNoSource is [live.ErrNoSource].
	ErrNoSource = live.ErrNoSource
	// ErrFromMixin is [live.ErrFromMixin].
	ErrFromMixin = live.ErrFromMixin
	// ErrFromPrefab is [live.ErrFromPrefab].
	ErrFromPrefab = live.ErrFromPrefab
	// ErrFileChanged is [live.ErrFileChanged].
	ErrFileChanged = live.ErrFileChanged
	// ErrCannotEdit is [live.ErrCannotEdit].
	ErrCannotEdit = live.ErrCannotEdit
	// ErrNotUndone is [live.ErrNotUndone].
	ErrNotUndone = live.ErrNotUndone
	// ErrReadOnly is [live.ErrReadOnly].
	ErrReadOnly = live.ErrReadOnly
)

// Load is [live.Load].
func Load(reg *registry.Registry, fsys fs.FS, name string, opt Options) (*Scene, error) {
	return live.Load(reg, fsys, name, opt)
}

// LoadFile is [live.LoadFile].
func LoadFile(reg *registry.Registry, file string, opt Options) (*Scene, error) {
	return live.LoadFile(reg, file, opt)
}

// LoadBytes is [live.LoadBytes].
func LoadBytes(reg *registry.Registry, name string, data []byte, opt Options) (*Scene, error) {
	return live.LoadBytes(reg, name, data, opt)
}

// CheckFile is [live.CheckFile].
func CheckFile(reg *registry.Registry, file string, opt Options) (*Plan, error) {
	return live.CheckFile(reg, file, opt)
}

// Build is [live.Build].
func Build(p *Plan, reg *registry.Registry) (*Scene, error) { return live.Build(p, reg) }

// BuildContext is [live.BuildContext].
func BuildContext(ctx context.Context, p *Plan, reg *registry.Registry) (*Scene, error) {
	return live.BuildContext(ctx, p, reg)
}

// NewSaver is [live.NewSaver].
func NewSaver(r *Reloader) *Saver { return live.NewSaver(r) }
