package main

import (
	"context"
	"io"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenerun"
	"github.com/scenecs/scenecs/scenerun/fleetcmd"
)

// Exit codes, as the tests name them.
const (
	exitOK    = scenerun.ExitOK
	exitScene = scenerun.ExitScene
	exitUsage = scenerun.ExitUsage
)

// run runs scene-run's command line in this process, as main does.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return scenerun.Program{Commands: fleetcmd.Commands()}.Run(ctx, args, stdout, stderr)
}

// testRuntime is a registry with scene-run's components, as each
// command makes one.
type testRuntime struct{ reg *registry.Registry }

func newRuntime(seed int64) (*testRuntime, error) {
	reg := registry.New(ecs.NewWorld())
	reg.Seed = uint64(seed)
	if _, err := components.Register(reg); err != nil {
		return nil, err
	}
	return &testRuntime{reg: reg}, nil
}
