package fleetcmd

import (
	"errors"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenerun"
)

// Exit codes, as the tests name them.
const (
	ExitOK    = scenerun.ExitOK
	ExitScene = scenerun.ExitScene
	ExitUsage = scenerun.ExitUsage
)

// Program is the tests' scenerun.Program with the fleet's commands.
type Program = scenerun.Program

// fleetProgram returns p with the fleet's commands added.
func fleetProgram(p Program) Program {
	p.Commands = append(p.Commands, Commands()...)
	return p
}

// mood is a program's own component.
type mood struct {
	Level int `scene:"level,default=5,min=0,max=10"`
}

func registerMood(reg *registry.Registry, b *components.Builtins) error {
	if b == nil || b.Transforms == nil {
		return errors.New("no built-ins given")
	}
	_, err := registry.Register(reg, "mood", registry.Definition[mood]{
		Tick: func(c *registry.Context, m *mood) { m.Level = min(m.Level+1, 10) },
	})
	return err
}

const moodScene = `entities:
  - id: hero
    position: 0 1 0
    mood: "level: 2"
`
