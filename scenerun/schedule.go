package scenerun

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	goruntime "runtime"
	"strconv"

	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/registry"
)

const scheduleUsage = `Usage: {prog} schedule [-json] [-ticks N] [-workers N] [-strict] [-shuffle SEED] [SCENE]

Loads SCENE (without SCENE the embedded default scene) and prints its
schedule: the phases in order (the fixed-step ones with their step), then
the systems and component ticks in the order they run, each with its
phase, its batch (entries of one batch may run at the same time on the
workers), what it reads and writes, its rate and constraints; then the
schedule's warnings (ambiguous orders). With -ticks N it first runs N
ticks and adds each one's median and 99th percentile time per run. -json
prints what the inspector's GET /api/schedule answers. See
docs/schedule.md.

Flags:
`

func (c *cli) cmdSchedule(ctx context.Context, args []string) error {
	fs := c.newFlags("schedule", scheduleUsage)
	asJSON := fs.Bool("json", false, "print the schedule as JSON (as GET /api/schedule)")
	var ticks int
	var hz float64
	countVar(fs, &ticks, "ticks", 0, "run `n` ticks first and add the times per run")
	rateVar(fs, &hz, "hz", 60, maxHz, "ticks per second of scene time, a `rate` in (0, 1000000]")
	sched := scheduleVar(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("expected at most one SCENE, got %d arguments", fs.NArg())
	}
	rt, err := c.newRuntime(0)
	if err != nil {
		return err
	}
	sched.apply(rt.reg)
	if _, err := rt.load(ctx, fs.Arg(0)); err != nil {
		return err
	}
	if err := tickN(ctx, rt, ticks, hz, nil); err != nil {
		return err
	}
	bw := bufio.NewWriter(c.stdout)
	if *asJSON {
		b, err := json.MarshalIndent(inspect.ScheduleOf(rt.reg), "", "  ")
		if err != nil {
			return err
		}
		bw.Write(append(b, '\n'))
		return bw.Flush()
	}
	window := inspect.ScheduleWindow
	if ticks == 0 {
		window = 0
	}
	if err := rt.reg.Schedule().WriteTable(bw, window); err != nil {
		return err
	}
	return bw.Flush()
}

// maxWorkers bounds -workers.
const maxWorkers = 4096

// workersFlag is the -workers flag: a count of workers in [1, maxWorkers].
type workersFlag struct{ v *int }

func (f workersFlag) String() string {
	if f.v == nil {
		return "0"
	}
	return strconv.Itoa(*f.v)
}

func (f workersFlag) Set(s string) error {
	x, err := strconv.Atoi(s)
	switch {
	case err != nil && errors.Is(err, strconv.ErrRange):
		return errors.New("out of range")
	case err != nil:
		return errors.New("not an integer")
	case x < 1 || x > maxWorkers:
		return fmt.Errorf("must be in [1, %d]", maxWorkers)
	}
	*f.v = x
	return nil
}

// schedFlags are the flags of the schedule that run, query, dump and
// schedule share: -workers, -strict and -shuffle.
type schedFlags struct {
	workers int
	strict  bool
	shuffle uint64
}

// scheduleVar defines the schedule's flags on fs, -workers defaulting to
// GOMAXPROCS.
func scheduleVar(fs *flag.FlagSet) *schedFlags {
	f := &schedFlags{workers: goruntime.GOMAXPROCS(0)}
	fs.Var(workersFlag{&f.workers}, "workers", "run non-conflicting systems on `n` workers (1: one after the other; the result is the same)")
	fs.BoolVar(&f.strict, "strict", false, "make an ambiguous order of systems (see the schedule command) an error instead of a warning")
	fs.Uint64Var(&f.shuffle, "shuffle", 0, "order the systems no constraint orders by a permutation drawn from `seed` (0: registration order), to expose hidden order dependence")
	return f
}

// apply sets the flags on reg's schedule.
func (f *schedFlags) apply(reg *registry.Registry) {
	s := reg.Schedule()
	s.SetWorkers(f.workers)
	s.SetStrict(f.strict)
	s.SetShuffle(f.shuffle)
}
