// Command scene-run runs, watches, queries, validates and dumps scenecs
// scenes.
//
// Usage:
//
//	scene-run [run] [flags] [SCENE]          run a scene (default: the embedded cubes.yaml)
//	scene-run query [-json] [-ticks N] SCENE SELECTOR
//	scene-run dump [-format yaml|xml|json] [-ticks N] SCENE
//	scene-run validate SCENE...
//	scene-run components
//	scene-run schema [-format json|xsd] [SCENE]
//
// Exit codes: 0 ok, 1 scene errors, 2 usage errors.
//
// scene-run knows the built-in components. A program with components of
// its own offers the same commands for them through package scenerun,
// of which this command is the zero Program.
package main

import "github.com/scenecs/scenecs/scenerun"

func main() {
	scenerun.Program{}.Main()
}
