package scenerun

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

const dumpUsage = `Usage: {prog} dump [-format yaml|xml|json] [-ticks N] [-emit SELECTOR:EVENT@TICK]... [-flat] SCENE

Loads SCENE, runs N ticks (emitting the -emit events when they are
due), and writes the World's state as a scene
document that loads back to the same entities and values. Instances
of prefabs are written as "prefab: NAME" plus what differs from the
prefab (a part destroyed at run time as "removed"), with the prefabs;
an instance that lost a component or its classes at run time, which a
scene file cannot say, is written whole, without "prefab:" (so it no
longer matches [prefab=NAME] after loading back). -flat writes every
entity whole, without prefabs.

Flags:
`

func (c *cli) cmdDump(ctx context.Context, args []string) error {
	stdout := c.stdout
	fs := c.newFlags("dump", dumpUsage)
	format := fs.String("format", "yaml", "output format: yaml, xml or json")
	flat := fs.Bool("flat", false, "write every entity whole, prefab instances too, without the prefabs")
	var ticks int
	var hz float64
	countVar(fs, &ticks, "ticks", 0, "run `n` ticks before dumping")
	rateVar(fs, &hz, "hz", 60, maxHz, "ticks per second of scene time, a `rate` in (0, 1000000]")
	sched := scheduleVar(fs)
	var emits []emitSpec
	emitVar(fs, &emits)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("expected one SCENE, got %d arguments", fs.NArg())
	}
	switch *format {
	case "yaml", "xml", "json":
	default:
		return usagef("-format must be yaml, xml or json, not %q", *format)
	}
	rt, err := c.newRuntime(0)
	if err != nil {
		return err
	}
	sched.apply(rt.reg)
	scene, err := rt.load(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	em, err := newEmitter(rt, emits, c.stderr)
	if err != nil {
		return err
	}
	if err := em.checkTicks(ticks, "-ticks"); err != nil {
		return err
	}
	if err := tickN(ctx, rt, ticks, hz, em); err != nil {
		return err
	}
	bw := bufio.NewWriter(stdout)
	// Arrays the scene writes as lists are dumped as lists.
	opt := export.Options{Flat: *flat, Lists: scene.Plan.Lists}
	if err := writeScene(bw, rt.reg, *format, opt); err != nil {
		return err
	}
	return bw.Flush()
}

// writeScene writes reg's World as a scene in format, as opt says.
func writeScene(w io.Writer, reg *registry.Registry, format string, opt export.Options) error {
	switch format {
	case "json":
		return export.WriteJSON(w, reg, opt)
	case "xml":
		return scenefile.WriteXML(w, export.Export(reg, opt))
	}
	return scenefile.WriteYAML(w, export.Export(reg, opt))
}

const validateUsage = `Usage: {prog} validate [-strict] SCENE...

Checks each SCENE (and its includes) against the registered components.
Prints nothing and exits 0 when all are fine; else prints every error as
file:line:col: message and exits 1. With -strict, what works but deserves
a word (a declaration that shadows a component of the program) fails
too, printed as file:line:col: note: message.

Flags:
`

func (c *cli) cmdValidate(ctx context.Context, args []string) error {
	fs := c.newFlags("validate", validateUsage)
	strict := fs.Bool("strict", false, "fail on notes too (file:line:col: note: ...), not only on errors")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("expected at least one SCENE")
	}
	var msgs []string
	for _, path := range fs.Args() {
		if _, err := os.Stat(path); err != nil {
			msgs = append(msgs, fmt.Sprintf("%s: %v", path, unwrapPathErr(err)))
			continue
		}
		rt, err := c.newRuntime(0)
		if err != nil {
			return err
		}
		plan, err := loader.CheckFile(rt.reg, path, loadOptions(ctx))
		if err == nil {
			err = scheduleErr(plan, rt, path)
		}
		if err == nil && *strict {
			for _, n := range plan.Notes {
				msgs = append(msgs, fmt.Sprintf("%s: note: %s", inDir(n.Pos, path), n.Msg))
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return c.interruptedError(path)
			}
			msgs = append(msgs, err.Error())
		}
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s", strings.Join(msgs, "\n"))
	}
	return nil
}

// unwrapPathErr drops the path of an *os.PathError (messages name the
// file themselves).
func unwrapPathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// scheduleErr returns the error building plan (read from path) would find
// in the schedule, its positions naming files as CheckFile's do.
func scheduleErr(plan *plan.Plan, rt *runtime, path string) error {
	err := plan.CheckSchedule(rt.reg)
	if list, ok := err.(scenefile.ErrorList); ok {
		for _, e := range list {
			e.Pos = inDir(e.Pos, path)
		}
	}
	return err
}

// inDir returns pos, a position in a plan compiled from the scene file
// path (its files named from path's directory), naming its file as
// CheckFile's errors do.
func inDir(pos scenefile.Pos, path string) scenefile.Pos {
	pos.File = filepath.Join(filepath.Dir(path), pos.File)
	return pos
}
