package inspect

import (
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/loader/export"
)

// Entity references are the editor's (see package editor): an id, a
// path such as ship/0, "#id", or the handle GET /api/entities/REF
// reports ("e12v0").

// resolve finds the live entity ref names (editor.Resolve). Call on the
// simulation goroutine.
func (in *Inspector) resolve(ref string) (ecs.Entity, error) { return editor.Resolve(in.reg, ref) }

// path returns the reference scene-run query prints for e.
func (in *Inspector) path(e ecs.Entity) string { return export.EntityPath(in.reg, e) }

// paths returns the references of many entities, the same as path gives
// each, naming each parent once (export.EntityPaths).
func (in *Inspector) paths(es []ecs.Entity) []string { return export.EntityPaths(in.reg, es) }

// label names e as events do: "#id", or its path.
func (in *Inspector) label(e ecs.Entity) string { return editor.Label(in.reg, e) }

// labels returns the labels of many entities, the same as label gives
// each, naming each parent once.
func (in *Inspector) labels(es []ecs.Entity) []string { return editor.Labels(in.reg, es) }
