package main

import (
	"fmt"
	"path/filepath"

	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenes"
)

// runtime is one World with its registry and built-ins.
type runtime struct {
	w   *ecs.World
	reg *registry.Registry
	b   *registry.Builtins
}

func newRuntime(seed int64) (*runtime, error) {
	w := ecs.NewWorld()
	reg := registry.New(w)
	reg.Seed = uint64(seed)
	b, err := registry.RegisterBuiltins(reg)
	if err != nil {
		return nil, err
	}
	return &runtime{w: w, reg: reg, b: b}, nil
}

// load loads the scene file path, or the embedded default scene if path is
// empty.
func (rt *runtime) load(path string) (*loader.Scene, error) {
	if path == "" {
		return loader.Load(rt.reg, scenes.FS, scenes.Default, loader.Options{})
	}
	switch loader.FormatOf(path) {
	case loader.FormatYAML, loader.FormatXML, loader.FormatJSON:
	default:
		return nil, usagef("%s: unknown scene format (want .yaml, .yml, .xml or .json)", path)
	}
	return loader.LoadFile(rt.reg, filepath.Clean(path), loader.Options{})
}

// sceneName is how messages name the scene.
func sceneName(path string) string {
	if path == "" {
		return scenes.Default + " (embedded)"
	}
	return path
}

func tickN(rt *runtime, n int, hz float64) {
	dt := 1 / hz
	for i := 0; i < n; i++ {
		rt.reg.Tick(dt)
	}
}

func checkHz(hz float64) error {
	if hz <= 0 || hz > 1e6 {
		return usagef("-hz must be in (0, 1000000], got %v", hz)
	}
	return nil
}

func plural(n int, s string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, s)
	}
	return fmt.Sprintf("%d %ss", n, s)
}
