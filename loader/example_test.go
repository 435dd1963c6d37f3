package loader_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// Load a scene from YAML, run it, query it with a selector and dump it.
func Example() {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		panic(err)
	}
	src := `
scene:
  physics: "step: 0.015625"
components:
  health: {hp: {type: int, default: 100}, max: {type: int, default: 100}}
mixins:
  rock: {enemy: , velocity: 0 -1 0}
entities:
  - id: ship
    position: 0 0 0
    health: "hp: 80"
  - id: rock-1
    mixin: rock
    position: 0 10 0
    health: {hp: 15}
`
	scene, err := loader.LoadBytes(reg, "level.yaml", []byte(src), loader.Options{})
	if err != nil {
		panic(err)
	}
	for i := 0; i < 64; i++ {
		reg.Tick(1.0 / 64) // the physics system moves rock-1 down
	}
	wounded, _ := reg.QueryAll("[health.hp<20]")
	for _, e := range wounded {
		fmt.Println("wounded:", reg.EntityID(e))
	}
	rock, _ := scene.Entity("rock-1")
	pos, _ := reg.Attr(rock, "position")
	fmt.Println("rock-1 position:", pos)
	scenefile.WriteYAML(os.Stdout, export.Export(reg, export.Options{Root: rock}))
	// Output:
	// wounded: rock-1
	// rock-1 position: 0 9 0
	// components:
	//   health:
	//     hp: {type: int, default: 100}
	//     max: {type: int, default: 100}
	//   enemy: {}
	// entities:
	//   - id: rock-1
	//     position: 0 9 0
	//     velocity: 0 -1 0
	//     health: "hp: 15"
	//     enemy:
}

// A broken scene is refused as a whole, with every problem reported as
// file:line:col: message, and the World is left untouched.
func Example_errors() {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		panic(err)
	}
	src := `entities:
  - id: a
    positon: 1 2 3
    velocity: 1 two 3
`
	_, err := loader.LoadBytes(reg, "level.yaml", []byte(src), loader.Options{})
	fmt.Println(strings.ReplaceAll(err.Error(), "\t", " "))
	fmt.Println("entities:", reg.World().Len())
	// Output:
	// level.yaml:3:5: unknown component "positon" (did you mean "position"?)
	// level.yaml:4:17: velocity: invalid value "two": expected a number for y of a vec3 (axes are separated by spaces)
	// entities: 0
}
