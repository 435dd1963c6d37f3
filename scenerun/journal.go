package scenerun

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/registry"
)

// Journals: run -inspect ... -journal FILE writes every change made
// through the inspector into FILE, one JSON line each (a header first,
// an "end" line last); replay SCENE FILE runs SCENE afresh, applying
// each change after the same number of ticks, and writes the World it
// ends with. The format is in docs/inspector.md.

// journalHeader is a journal's first line: what the run was.
type journalHeader struct {
	// Journal is the format's version, 1.
	Journal int `json:"journal"`
	// Scene is the scene as the run named it.
	Scene string  `json:"scene"`
	Hz    float64 `json:"hz"`
	Seed  int64   `json:"seed,omitempty"`
	// Emit are the run's -emit flags, as given.
	Emit []string `json:"emit,omitempty"`
}

// journalFile is the journal a run writes.
type journalFile struct {
	f *os.File
}

// openJournal creates the journal file and writes its header.
func openJournal(path string, h journalHeader) (*journalFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, usagef("-journal: %v", err)
	}
	b, _ := json.Marshal(h)
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return nil, fmt.Errorf("-journal: %w", err)
	}
	return &journalFile{f: f}, nil
}

// end writes the last line, the ticks the run made, and closes the
// file.
func (j *journalFile) end(ticks int) error {
	if j == nil {
		return nil
	}
	b, _ := json.Marshal(inspect.JournalLine{Tick: uint64(ticks), Op: "end"})
	_, err := j.f.Write(append(b, '\n'))
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	return err
}

const replayUsage = `Usage: {prog} replay [-format json|yaml|xml] SCENE JOURNAL

Runs SCENE afresh (at the journal's rate, seed and -emit events) and
applies the changes the JOURNAL recorded (run -inspect ADDR -journal
FILE) after the same number of ticks each, then writes the World it ends
with, as dump does. A change the replay cannot make (the scene is not
the one the journal was written on, or was edited since) stops it with
the journal's line. Nothing is saved into files.

Flags:
`

func (c *cli) cmdReplay(ctx context.Context, args []string) error {
	fs := c.newFlags("replay", replayUsage)
	format := fs.String("format", "json", "output format: json, yaml or xml")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("expected SCENE and JOURNAL, got %d arguments", fs.NArg())
	}
	switch *format {
	case "yaml", "xml", "json":
	default:
		return usagef("-format must be json, yaml or xml, not %q", *format)
	}
	jf, err := os.Open(fs.Arg(1))
	if err != nil {
		return usagef("%v", err)
	}
	defer jf.Close()
	sc := bufio.NewScanner(jf)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	h, err := readHeader(sc, fs.Arg(1))
	if err != nil {
		return err
	}
	rt, err := c.newRuntime(h.Seed)
	if err != nil {
		return err
	}
	scene, err := rt.load(ctx, fs.Arg(0))
	if err != nil {
		return err
	}
	var specs []emitSpec
	for _, s := range h.Emit {
		spec, err := parseEmit(s)
		if err != nil {
			return fmt.Errorf("%s:1: emit %q: %v", fs.Arg(1), s, err)
		}
		specs = append(specs, spec)
	}
	em, err := newEmitter(rt, specs, c.stderr)
	if err != nil {
		return err
	}
	in := inspect.New(rt.reg, inspect.Options{Scene: scene, Behaviour: rt.b})
	defer in.Close()
	if err := replayLines(ctx, rt, in, em, sc, fs.Arg(1), h.Hz); err != nil {
		return err
	}
	bw := bufio.NewWriter(c.stdout)
	if err := writeScene(bw, rt.reg, *format, export.Options{Lists: scene.Plan.Lists}); err != nil {
		return err
	}
	return bw.Flush()
}

// readHeader reads a journal's first line.
func readHeader(sc *bufio.Scanner, name string) (journalHeader, error) {
	var h journalHeader
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return h, fmt.Errorf("%s: %v", name, err)
		}
		return h, fmt.Errorf("%s: empty: not a journal", name)
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil || h.Journal != 1 {
		return h, fmt.Errorf("%s:1: not a journal of version 1 (want {\"journal\":1,...}): %v", name, err)
	}
	if h.Hz <= 0 || h.Hz > maxHz {
		return h, fmt.Errorf("%s:1: hz %v: want a rate in (0, %v]", name, h.Hz, maxHz)
	}
	if err := registry.CheckTickRate(h.Hz); err != nil {
		return h, fmt.Errorf("%s:1: %w", name, err)
	}
	return h, nil
}

// replayLines applies the journal's lines, each after its tick, ticking
// the scene in between at hz, until the "end" line (or the last line).
func replayLines(ctx context.Context, rt *runtime, in *inspect.Inspector, em *emitter, sc *bufio.Scanner, name string, hz float64) error {
	defer rt.reg.SetContext(rt.reg.SetContext(ctx)) // Ctrl-C stops spawns mid-tick
	dt := 1 / hz
	ticks := 0
	for n := 2; sc.Scan(); n++ {
		var l inspect.JournalLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return fmt.Errorf("%s:%d: %v", name, n, err)
		}
		for uint64(ticks) < l.Tick {
			if ctx.Err() != nil {
				return fmt.Errorf("%s: interrupted after %s", rt.c.Name, plural(ticks, "tick"))
			}
			em.due(rt, ticks)
			if err := rt.reg.Tick(dt); err != nil {
				fmt.Fprintf(rt.c.stderr, "tick %d: %v\n", ticks+1, err)
			}
			ticks++
		}
		switch l.Op {
		case "end":
			em.due(rt, ticks)
			return nil
		case "reload":
			return fmt.Errorf("%s:%d: the run hot-reloaded its files after %s: a replay cannot make that again", name, n, plural(ticks, "tick"))
		}
		if uint64(ticks) > l.Tick {
			return fmt.Errorf("%s:%d: tick %d comes after tick %d: the lines are out of order", name, n, l.Tick, ticks)
		}
		em.due(rt, ticks)
		if err := in.Apply(l); err != nil {
			return fmt.Errorf("%s:%d: after %s: %v: the replay no longer follows the run", name, n, plural(ticks, "tick"), err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// journalWriter returns the journal's writer for the inspector, or nil.
func (j *journalFile) writer() io.Writer {
	if j == nil {
		return nil
	}
	return j.f
}

// newJournalHeader describes the run f for its journal.
func newJournalHeader(scene string, f runFlags) journalHeader {
	h := journalHeader{Journal: 1, Scene: scene, Hz: f.hz, Seed: f.seed}
	for _, e := range f.emits {
		h.Emit = append(h.Emit, e.text)
	}
	return h
}
