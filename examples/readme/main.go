// Command readme is the Go program the README shows, kept here so that
// it compiles and runs as written (main_test.go checks that the README's
// copy is this file).
package main

import (
	"fmt"
	"log"
	"math"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// Health is a component of the game's own: health="hp: 50" in a scene.
type Health struct {
	HP  int `scene:"hp,default=100,min=0"`
	Max int `scene:"max,default=100"`
}

func main() {
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg) // position, ..., physics, transforms
	if err != nil {
		log.Fatal(err)
	}
	if err := register(reg, b); err != nil {
		log.Fatal(err)
	}
	if _, err := loader.LoadFile(reg, "level.yaml", loader.Options{}); err != nil {
		log.Fatal(err) // file:line:col for every problem
	}
	for range 60 {
		if err := reg.Tick(1.0 / 60); err != nil {
			log.Fatal(err)
		}
	}
	wounded, err := reg.QueryAll("[health.hp<50]")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range wounded {
		hp, _ := reg.Attr(e, "health")
		wt, _ := b.Transforms.World(e) // world position, rotation, scale
		fmt.Printf("%s %s at %v\n", export.EntityPath(reg, e), hp, wt.Position)
	}
}

// register registers the program's own components; package scenerun
// takes the same function to give the tools (validate, schema, ...)
// these components.
func register(reg *registry.Registry, b *components.Builtins) error {
	_, err := registry.Register(reg, "health", registry.Definition[Health]{
		// A Tick may read other entities: near #hazard, lose 1 hp a tick.
		Tick: func(c *registry.Context, h *Health) {
			hazard, ok, _ := c.Registry.Resolve("#hazard")
			if !ok {
				return
			}
			me, _ := b.Transforms.World(c.Entity)
			it, _ := b.Transforms.World(hazard)
			if math.Hypot(me.Position.X-it.Position.X, me.Position.Z-it.Position.Z) < 5 {
				h.HP = max(h.HP-1, 0)
			}
		},
	})
	return err
}
