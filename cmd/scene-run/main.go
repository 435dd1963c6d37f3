// Command scene-run runs, watches, queries, validates and dumps scenecs
// scenes, and runs and steers a fleet of room hosts.
//
// Usage:
//
//	scene-run [run] [flags] [SCENE]          run a scene (default: the embedded cubes.yaml)
//	scene-run query [-json] [-ticks N] SCENE SELECTOR
//	scene-run dump [-format yaml|xml|json] [-ticks N] SCENE
//	scene-run validate [-strict] SCENE...
//	scene-run components
//	scene-run schema [-format json|xsd] [SCENE]
//	scene-run host [-nats URL] [flags]       a room host
//	scene-run rooms [list | create ...]      the fleet's rooms
//
// Exit codes: 0 ok, 1 scene errors, 2 usage errors.
//
// scene-run knows the built-in components. A program with components of
// its own offers the same commands for them through package scenerun,
// of which this command is the Program with the fleet's commands
// (package scenerun/fleetcmd) added.
package main

import (
	"github.com/scenecs/scenecs/scenerun"
	"github.com/scenecs/scenecs/scenerun/fleetcmd"
)

func main() {
	scenerun.Program{Commands: fleetcmd.Commands()}.Main()
}
