// Package scenes holds the example scenes, embedded so that scene-run and
// the tests can use them without the source tree.
package scenes

import "embed"

// FS holds the example scene files: cubes.yaml (the default), cubes.xml,
// asteroids.yaml, authoring.yaml and behaviour.yaml (timers, animations,
// event handlers and bindings, without Go).
//
//go:embed *.yaml *.xml
var FS embed.FS

// Default is the name of the scene scene-run runs when given none.
const Default = "cubes.yaml"
