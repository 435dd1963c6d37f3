package scenerun

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// runtime is one World with its registry and built-ins.
type runtime struct {
	c   *cli
	w   *ecs.World
	reg *registry.Registry
	b   *components.Builtins
}

// newRuntime makes a World and a registry with the built-ins and the
// program's own components.
func (c *cli) newRuntime(seed int64) (*runtime, error) {
	w := ecs.NewWorld()
	reg := registry.New(w)
	reg.Seed = uint64(seed)
	b, err := components.Register(reg)
	if err != nil {
		return nil, err
	}
	if c.Register != nil {
		if err := c.Register(reg, b); err != nil {
			return nil, fmt.Errorf("%s: registering components: %w", c.Name, err)
		}
	}
	return &runtime{c: c, w: w, reg: reg, b: b}, nil
}

// load loads the scene file path, or the embedded default scene if path is
// empty. ctx interrupts it (Ctrl-C).
func (rt *runtime) load(ctx context.Context, path string) (*loader.Scene, error) {
	var s *loader.Scene
	var err error
	opt := loadOptions(ctx)
	if path == "" {
		s, err = loader.Load(rt.reg, rt.c.Scenes, rt.c.DefaultScene, opt)
	} else {
		if err := checkSceneFormat(path); err != nil {
			return nil, err
		}
		s, err = loader.LoadFile(rt.reg, filepath.Clean(path), opt)
	}
	if err != nil && ctx.Err() != nil {
		return nil, rt.c.interruptedError(rt.c.sceneName(path))
	}
	return s, err
}

// loadOptions are the options of a load interrupted by ctx, which knows
// the names of the built-ins (a program's Register that leaves them out
// is told so).
func loadOptions(ctx context.Context) loader.Options {
	return loader.Options{Context: ctx, Builtins: components.Names()}
}

// interruptedError says that loading the scene was interrupted (exit 1).
func (c *cli) interruptedError(scene string) error {
	return fmt.Errorf("%s: loading %s interrupted", c.Name, scene)
}

// sceneName is how messages name the scene.
func (c *cli) sceneName(path string) string {
	if path == "" {
		return c.DefaultScene + " (embedded)"
	}
	return path
}

// tickN runs n ticks of 1/hz seconds, emitting em's events when they
// are due (em may be nil), stopping with an error if ctx ends.
func tickN(ctx context.Context, rt *runtime, n int, hz float64, em *emitter) error {
	defer rt.reg.SetContext(rt.reg.SetContext(ctx)) // Ctrl-C stops spawns mid-tick
	dt := 1 / hz
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			return fmt.Errorf("%s: interrupted after %s", rt.c.Name, plural(i, "tick"))
		}
		em.due(rt, i)
		if err := rt.reg.Tick(dt); err != nil {
			return fmt.Errorf("tick %d: %w", i+1, err)
		}
	}
	em.due(rt, n)
	if err := rt.reg.TakeErrors(); err != nil {
		return fmt.Errorf("after tick %d: %w", n, err)
	}
	return nil
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

func plural(n int, s string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, s)
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// checkSceneFormat refuses a scene path whose extension names no format.
func checkSceneFormat(path string) error {
	switch scenefile.FormatOf(path) {
	case scenefile.FormatYAML, scenefile.FormatXML, scenefile.FormatJSON:
		return nil
	}
	return usagef("%s: unknown scene format (want .yaml, .yml, .xml or .json)", path)
}
