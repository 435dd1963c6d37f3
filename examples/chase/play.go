package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/scenerun"
	"github.com/scenecs/scenecs/watch"
)

// game is the running game: its World, registry and level.
type game struct {
	reg   *registry.Registry
	scene *loader.Scene
}

// newGame makes a registry with the built-ins and the game's components
// and loads the level: the file path, or the embedded level if path is
// empty.
func newGame(ctx context.Context, path string) (*game, error) {
	reg := registry.New(ecs.NewWorld())
	b, err := components.Register(reg)
	if err != nil {
		return nil, err
	}
	if err := register(reg, b); err != nil {
		return nil, err
	}
	opt := loader.Options{Context: ctx}
	var s *loader.Scene
	if path == "" {
		s, err = loader.Load(reg, level, "level.yaml", opt)
	} else {
		s, err = loader.LoadFile(reg, path, opt)
	}
	if err != nil {
		return nil, err
	}
	return &game{reg: reg, scene: s}, nil
}

// play runs the game loop: a ticker paces the ticks, and between two
// ticks the loop applies a saved edit of the level and serves the
// inspector's requests. It returns the exit code.
func play(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	hz := fs.Float64("hz", 60, "ticks per second")
	ticks := fs.Int("ticks", 0, "stop after `n` ticks (0: play until interrupted)")
	addr := fs.String("inspect", "", "serve the inspector on `addr` (host:port) and print its URL")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: chase play [-hz N] [-ticks N] [-inspect ADDR] [LEVEL]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 || *hz <= 0 || *hz > 1000 || *ticks < 0 {
		fs.Usage()
		return 2
	}
	if err := loop(ctx, fs.Arg(0), *hz, *ticks, *addr, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// loop is the game loop proper.
func loop(ctx context.Context, path string, hz float64, ticks int, addr string, stdout, stderr io.Writer) error {
	g, err := newGame(ctx, path)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // stops the watcher and the inspector's server

	// Hot reload: a level read from a file is reloaded on every save.
	// Nil channels (no file) are never ready in the select below.
	var changes <-chan []string
	var watchErrs <-chan error
	var sw *scenerun.SceneWatcher
	if path != "" {
		if sw, err = scenerun.WatchScene(ctx, g.scene, path, watch.Options{}); err != nil {
			return err
		}
		changes, watchErrs = sw.Changes, sw.Errors
		fmt.Fprintf(stdout, "watching %s\n", path)
	}

	// The inspector: its requests are served by this goroutine, between
	// ticks (Drain), so they never race with the simulation.
	var in *inspect.Inspector
	var wake <-chan struct{}
	if addr != "" {
		opt := inspect.Options{Scene: g.scene}
		if path != "" { // edits made in the page can be saved into the file
			opt.Reloader = &live.Reloader{Scene: g.scene, File: path, Options: loader.Options{Context: ctx}}
		}
		in = inspect.New(g.reg, opt)
		url, err := in.Listen(ctx, addr)
		if err != nil {
			return err
		}
		wake = in.Wake()
		fmt.Fprintf(stdout, "inspect: %s\n", url)
	}

	dt := 1 / hz
	ticker := time.NewTicker(time.Duration(float64(time.Second) / hz))
	defer ticker.Stop()
	for n := 0; ticks == 0 || n < ticks; {
		select {
		case <-ctx.Done():
			return nil
		case <-changes: // the level was saved: apply it between two ticks
			d, err := sw.Reload()
			if in != nil {
				in.Reloaded(d, err) // the page's reload log
			}
			if err != nil {
				fmt.Fprintf(stderr, "reload failed; the level plays on unchanged:\n%v\n", err)
				continue
			}
			fmt.Fprintf(stdout, "reload: %s\n", d.Summary())
			for _, e := range d.Entries(g.reg) { // ~ #troll chase.speed 1 → 4
				fmt.Fprintf(stdout, "  %s\n", e)
			}
		case err := <-watchErrs:
			fmt.Fprintf(stderr, "watch: %v\n", err)
		case <-wake: // a request waits: serve it now, not at the next tick
			in.Drain()
		case <-ticker.C:
			var err error
			if in != nil {
				err = in.Tick(dt) // serves requests, ticks unless paused
			} else {
				err = g.reg.Tick(dt)
			}
			if err != nil {
				return fmt.Errorf("tick %d: %w", n+1, err)
			}
			n++
			if n%int(hz) == 0 {
				g.status(stdout)
			}
		}
	}
	g.status(stdout)
	return nil
}

// status prints one line: the scene time and who has caught the player.
func (g *game) status(w io.Writer) {
	all, _ := g.reg.QueryAll("[chase]")
	caught, _ := g.reg.QueryAll("[chase.caught=true]")
	fmt.Fprintf(w, "t=%.1fs  %d of %d chasers caught the player\n", g.reg.Time(), len(caught), len(all))
}
