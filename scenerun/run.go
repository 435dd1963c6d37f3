package scenerun

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader/live"
)

const runUsage = `Usage: {prog} [run] [flags] [SCENE]

Loads SCENE (YAML, XML or JSON by extension; without SCENE the embedded
default scene, cubes.yaml) and runs it at a fixed time step, then prints a
summary. -emit 'SELECTOR:EVENT@TICK' (repeatable) emits EVENT on the
entities SELECTOR matches once TICK ticks have run, for scripted runs. Ctrl-C stops early, still with the summary. With -watch or
-inspect it runs until Ctrl-C unless -ticks is given.

-inspect ADDR serves the inspection API (docs/inspector.md) while the scene
runs and prints one line, "inspect: http://HOST:PORT/?token=TOKEN".

Without any argument at all, {prog} runs the default scene as
"{prog} run -inspect 127.0.0.1:0": in real time, with the inspector, until
Ctrl-C.

Flags:
`

type runFlags struct {
	ticks    int
	hz       float64
	realtime bool
	seed     int64
	query    string
	watch    bool
	dryRun   bool
	poll     time.Duration
	debounce time.Duration
	inspect  string // -inspect address; "" for none
	journal  string // -journal file; "" for none
	jf       *journalFile
	sched    *schedFlags
	emits    []emitSpec
	emitter  *emitter

	// Set when the run starts (see inspect.go): the inspector, and the
	// function each hot reload is reported to.
	inspector *inspect.Inspector
	reloaded  func(*live.Diff, error)
}

func (c *cli) cmdRun(ctx context.Context, args []string) error {
	stdout, stderr := c.stdout, c.stderr
	var f runFlags
	fs := c.newFlags("run", runUsage)
	countVar(fs, &f.ticks, "ticks", 600, "run `n` ticks (with -watch or -inspect, or 0 with them: until interrupted)")
	rateVar(fs, &f.hz, "hz", 60, maxHz, "ticks per second of scene time, a `rate` in (0, 1000000] (the fixed time step is 1/rate)")
	fs.BoolVar(&f.realtime, "realtime", false, "pace ticks to wall-clock time (default: as fast as possible)")
	fs.Int64Var(&f.seed, "seed", 0, "mixed into every spawner's seed (0: the scene's own seeds)")
	fs.StringVar(&f.query, "query", "", "a selector whose matches are counted at the end")
	fs.BoolVar(&f.watch, "watch", false, "hot-reload SCENE and its includes on every save (implies -realtime)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "with -watch: print what each save would change, without applying it")
	intervalVar(fs, &f.poll, "poll", 0, "leave -poll out to use file system events", "with -watch: poll for changes at this `interval` instead of using file system events")
	intervalVar(fs, &f.debounce, "debounce", 50*time.Millisecond, "", "with -watch: how long (a `duration` > 0) a file must stay quiet to count as saved when it does not read as a scene (half written or broken)")
	f.sched = scheduleVar(fs)
	fs.StringVar(&f.inspect, "inspect", "", "serve the inspection API on `addr` (host:port; 127.0.0.1:0 picks a free port) and print its URL (implies -realtime)")
	emitVar(fs, &f.emits)
	fs.StringVar(&f.journal, "journal", "", "with -inspect: write every change made through the inspector to `file` (JSON lines), for replay")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if f.journal != "" && f.inspect == "" {
		return usagef("-journal goes with -inspect (it records the changes made through the inspector)")
	}
	if f.inspect != "" {
		if err := checkInspectAddr(f.inspect); err != nil {
			return err
		}
		if !isSet(fs, "realtime") {
			f.realtime = true
		}
	}
	if (f.watch || f.inspect != "") && !isSet(fs, "ticks") {
		f.ticks = 0
	}
	if fs.NArg() > 1 {
		return usagef("expected at most one SCENE, got %d arguments", fs.NArg())
	}
	path := fs.Arg(0)
	if f.watch && path == "" {
		return usagef("-watch needs a SCENE file to watch")
	}
	if f.dryRun && !f.watch {
		return usagef("-dry-run goes with -watch")
	}
	if !f.watch && (isSet(fs, "poll") || isSet(fs, "debounce")) {
		return usagef("-poll and -debounce go with -watch")
	}
	rt, err := c.newRuntime(f.seed)
	if err != nil {
		return err
	}
	f.sched.apply(rt.reg)
	scene, err := rt.load(ctx, path)
	if err != nil {
		return err
	}
	for _, warn := range rt.reg.Schedule().Warnings() {
		fmt.Fprintf(stderr, "%s: schedule: warning: %s\n", c.Name, warn)
	}
	if f.query != "" {
		if _, err := rt.reg.QueryAll(f.query); err != nil {
			return selectorError(err)
		}
	}
	if f.emitter, err = newEmitter(rt, f.emits, stderr); err != nil {
		return err
	}
	if f.ticks > 0 {
		if err := f.emitter.checkTicks(f.ticks, "-ticks"); err != nil {
			return err
		}
	}
	if f.journal != "" {
		if f.jf, err = openJournal(f.journal, newJournalHeader(c.sceneName(path), f)); err != nil {
			return err
		}
	}
	if f.inspect != "" {
		ictx, cancel := context.WithCancel(ctx)
		defer cancel() // stops serving when the run ends
		if err := startInspect(ictx, rt, scene, path, &f, stdout); err != nil {
			return err
		}
	}
	var reloads <-chan func()
	if f.watch {
		f.realtime = true
		w, err := startWatch(ctx, scene, path, f, stdout, stderr)
		if err != nil {
			return err
		}
		reloads = w
	}
	return c.runLoop(ctx, rt, f, path, reloads)
}

func (c *cli) runLoop(ctx context.Context, rt *runtime, f runFlags, path string, reloads <-chan func()) error {
	stdout, stderr := c.stdout, c.stderr
	defer rt.reg.SetContext(rt.reg.SetContext(ctx)) // Ctrl-C stops spawns mid-tick
	dt := 1 / f.hz
	step := time.Duration(float64(time.Second) / f.hz)
	tty := isTerminal(stderr)
	var times tickStats // bounded, however many ticks
	start := time.Now()
	next := start
	lastStatus := start
	ticks := 0
	seen := map[string]bool{}
	for f.ticks == 0 && (f.watch || f.inspect != "") || ticks < f.ticks {
		select {
		case <-ctx.Done():
			goto done
		case apply := <-reloads:
			apply() // between ticks, never inside one
			continue
		default:
		}
		f.emitter.due(rt, ticks)
		if !beforeTick(f.inspector) { // paused by the inspector
			if _, ok := waitUntil(ctx, time.Now().Add(10*time.Millisecond), reloads, f.inspector); !ok {
				goto done
			}
			next = time.Now()
			continue
		}
		t0 := time.Now()
		tickErr := rt.reg.Tick(dt)
		took := time.Since(t0)
		times.add(took)
		observeTick(f.inspector, took)
		ticks++
		if tickErr != nil {
			reportTickError(stderr, seen, ticks, tickErr)
		}
		if tty && time.Since(lastStatus) > 100*time.Millisecond {
			lastStatus = time.Now()
			fmt.Fprintf(stderr, "\rtick %d  entities %d  %.3f ms/tick   ", ticks, rt.w.Len(), ms(took))
		}
		if f.realtime {
			next = next.Add(step)
			if time.Until(next) > 0 {
				reloaded, ok := waitUntil(ctx, next, reloads, f.inspector)
				if !ok {
					goto done
				}
				if reloaded {
					next = time.Now()
				}
			} else {
				next = time.Now()
			}
		}
	}
done:
	if f.ticks > 0 && ticks == f.ticks {
		f.emitter.due(rt, ticks)
		if err := rt.reg.TakeErrors(); err != nil {
			reportTickError(stderr, seen, ticks, err)
		}
	}
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err := f.jf.end(ticks); err != nil {
		fmt.Fprintf(stderr, "-journal: %v\n", err)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(stdout, "scene     %s\n", c.sceneName(path))
	fmt.Fprintf(stdout, "entities  %d\n", rt.w.Len())
	fmt.Fprintf(stdout, "ticks     %d\n", ticks)
	if ticks > 0 {
		fmt.Fprintf(stdout, "ticks/s   %.0f (busy time), %.0f (wall time)\n", float64(ticks)/times.busy.Seconds(), float64(ticks)/elapsed.Seconds())
		fmt.Fprintf(stdout, "ms/tick   p50 %.3f  p99 %.3f\n", ms(times.percentile(50)), ms(times.percentile(99)))
	}
	if f.query != "" {
		es, err := rt.reg.QueryAll(f.query)
		if err != nil {
			return usagef("%v", err)
		}
		word := "matches"
		if len(es) == 1 {
			word = "match"
		}
		fmt.Fprintf(stdout, "query     %s: %d %s\n", f.query, len(es), word)
	}
	if !f.watch && f.inspect == "" {
		c.printInspectHint(stdout, path)
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// reportTickError prints an error a tick returned, each line (the
// errors a tick joins) once per run: a system that cannot start reports
// the same error every tick, and the run goes on with the systems that
// can; a scene whose events pass their budget every tick says so once.
func reportTickError(stderr io.Writer, seen map[string]bool, tick int, err error) {
	var fresh []string
	for _, line := range strings.Split(err.Error(), "\n") {
		if !seen[line] {
			seen[line] = true
			fresh = append(fresh, line)
		}
	}
	if len(fresh) > 0 {
		fmt.Fprintf(stderr, "tick %d: %s\n", tick, strings.Join(fresh, "\n"))
	}
}
