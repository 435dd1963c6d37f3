// Command chase is a small game built on scenecs: enemies with the game's
// own `chase` component run after a player who rides a turntable. It
// shows what a program needs to bring its own components to the tools:
//
//   - one registration function (register, in chase.go) used by the
//     game and by the tools alike;
//   - a game loop of its own (play) that ticks the scene, hot-reloads the
//     level on every save and serves the inspector;
//   - scene-run's whole command set (run, query, dump, validate,
//     components, schema) for the game's scenes, through package
//     scenerun.
//
// Usage:
//
//	chase                               play the embedded level
//	chase play [-ticks N] [-inspect ADDR] [LEVEL]
//	                                    play LEVEL, reloading it on every save
//	chase validate LEVEL...             and every other scene-run command
//	chase schema [-format json|xsd] [LEVEL]
//
// From the repository's root: go run ./examples/chase play
// examples/chase/level.yaml.
package main

import (
	"context"
	"embed"
	"os"
	"os/signal"
	"syscall"

	"github.com/scenecs/scenecs/scenerun"
)

// level is the embedded level, played when no file is named.
//
//go:embed level.yaml
var level embed.FS

// program is scene-run's command set for the game's components.
var program = scenerun.Program{
	Name:         "chase",
	Register:     register,
	Scenes:       level,
	DefaultScene: "level.yaml",
	Help:         "  chase play [-hz N] [-ticks N] [-inspect ADDR] [LEVEL]\n                                  play LEVEL, reloading it on every save (chase alone plays the embedded level)",
}

func main() {
	if len(os.Args) > 1 && os.Args[1] != "play" {
		program.Main() // validate, query, dump, run -watch, schema, ...
	}
	args := os.Args[1:]
	if len(args) > 0 {
		args = args[1:] // "play"
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := play(ctx, args, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
