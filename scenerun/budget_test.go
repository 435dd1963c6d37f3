package scenerun

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/registry"
)

// fanEveryTick is issue 32's fanning scene with a timer that fires every
// tick: each tick asks for 2³² deliveries.
const fanEveryTick = `entities:
  - id: bomb
    timer: "delay: 0; interval: 0; repeat: true; event: a"
    on__a: "emit: a, a"
`

// TestRunFanOutEnds: scene-run runs the fanning scene for its ticks
// (each ends at the delivery budget) and reports the budget's error once,
// naming the entity and the handler.
func TestRunFanOutEnds(t *testing.T) {
	path := sceneFile(t, "fan.yaml", fanEveryTick)
	code, stdout, stderr := runProg(Program{}, "run", "-ticks", "4", path)
	if code != 0 || !strings.Contains(stdout, "ticks     4\n") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	want := "entity #bomb: on__a: a: more than 100000 event deliveries in one tick (Limits.MaxDeliveries): the rest were dropped"
	if strings.Count(stderr, want) != 1 {
		t.Errorf("stderr has the budget's error %d times, want once:\n%s", strings.Count(stderr, want), stderr)
	}
}

// cancelOn is a writer that cancels a context once what is written to it
// holds a text: Ctrl-C when the run first reports the budget's error.
type cancelOn struct {
	mu     sync.Mutex
	b      bytes.Buffer
	text   string
	cancel context.CancelFunc
}

func (c *cancelOn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.b.Write(p)
	if strings.Contains(c.b.String(), c.text) {
		c.cancel()
	}
	return n, err
}

// TestRunFanOutStopsOnInterrupt: a run of the fanning scene that is
// interrupted (the context Main cancels on SIGINT and SIGTERM) stops at
// the next tick with its summary, however many ticks it was asked for.
func TestRunFanOutStopsOnInterrupt(t *testing.T) {
	path := sceneFile(t, "fan.yaml", fanEveryTick)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errw := &cancelOn{text: "Limits.MaxDeliveries", cancel: cancel}
	var out bytes.Buffer
	code := Program{}.Run(ctx, []string{"run", "-ticks", "1000000", path}, &out, errw)
	if code != 0 || !strings.Contains(out.String(), "ticks     ") || strings.Contains(out.String(), "ticks     1000000") {
		t.Errorf("exit %d\n%s\n%s", code, out.String(), errw.b.String())
	}
}

// TestQueryAndDumpFanOutFail: query and dump, which stop at a tick's
// error, stop at the fanning scene's first tick with the budget's error.
func TestQueryAndDumpFanOutFail(t *testing.T) {
	path := sceneFile(t, "fan.yaml", fanEveryTick)
	for _, args := range [][]string{{"query", "-ticks", "3", path, "#bomb"}, {"dump", "-ticks", "3", path}} {
		code, _, stderr := runProg(Program{}, args...)
		if code == 0 || !strings.HasPrefix(stderr, "tick 1: ") || !strings.Contains(stderr, "entity #bomb: on__a: a: more than 100000 event deliveries in one tick") {
			t.Errorf("%s: exit %d\n%s", args[0], code, stderr)
		}
	}
}

// TestCommandsStopSpawnsOnInterrupt: the ticks of run, query and dump
// run with the command's context as the Registry's, so that Ctrl-C stops
// a spawn in the middle of a tick (a spawn bomb's last ticks make
// hundreds of thousands of entities each).
func TestCommandsStopSpawnsOnInterrupt(t *testing.T) {
	for _, args := range [][]string{{"run", "-ticks", "3"}, {"query", "-ticks", "3"}, {"dump", "-ticks", "3"}} {
		ctx, cancel := context.WithCancel(context.Background())
		var seen error
		p := Program{Register: func(reg *registry.Registry, _ *components.Builtins) error {
			_, err := registry.RegisterSystem(reg, "interrupt", registry.SystemDefinition[struct{}]{
				Tick: func(s *registry.SystemContext, _ *struct{}) {
					cancel() // Ctrl-C while the tick runs
					seen = s.Registry.ContextErr()
				},
			})
			return err
		}}
		path := sceneFile(t, "s.yaml", "entities: [{id: a}]\n")
		if args[0] == "query" {
			args = append(args, path, "#a")
		} else {
			args = append(args, path)
		}
		var out, errb bytes.Buffer
		p.Run(ctx, args, &out, &errb)
		cancel()
		if !errors.Is(seen, context.Canceled) {
			t.Errorf("%s: the Registry's context during a tick: %v", args[0], seen)
		}
	}
}

// TestReplayFanOutEnds: a journal line that sends the fanning scene's
// event (a POST .../events/a recorded by run -inspect -journal) replays
// within the delivery budget of one inspector call, and the next tick
// reports it.
func TestReplayFanOutEnds(t *testing.T) {
	scene := sceneFile(t, "fan.yaml", "entities:\n  - id: bomb\n    on__a: \"emit: a, a\"\n")
	j := sceneFile(t, "j.jsonl", `{"journal":1,"scene":"fan.yaml","hz":60}
{"tick":1,"op":"emit","ref":"bomb","event":"a"}
{"tick":2,"op":"end"}
`)
	code, _, stderr := runProg(Program{}, "replay", scene, j)
	want := "\nentity #bomb: on__a: a: more than 100000 event deliveries in one inspector call (Limits.MaxDeliveries): the rest were dropped"
	if code != ExitOK || !strings.HasPrefix(stderr, "tick 2: ") || !strings.Contains(stderr, want) {
		t.Errorf("replay: exit %d\n%s\nwant %s", code, stderr, want)
	}
}
