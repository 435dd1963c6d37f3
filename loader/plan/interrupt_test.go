package plan_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/internal/scenegen"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/plan"
	"github.com/scenecs/scenecs/loader/scenefile"
)

// Ctrl-C during a load: each phase (read, compile with its prefabs'
// expansion, build) stops within a second of the context being done,
// on scenes large enough that the phase takes longer than the wait.

// interruptWait is how long after its start a phase is interrupted.
const interruptWait = 30 * time.Millisecond

// checkInterrupted runs phase with a context that times out after
// interruptWait and checks that it stopped within a second of that,
// saying why.
func checkInterrupted(t *testing.T, name string, phase func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), interruptWait)
	defer cancel()
	start := time.Now()
	err := phase(ctx)
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("%s: got %v after %v, want an interruption (is the scene large enough?)", name, err, took)
	}
	t.Logf("%s: stopped %v after the deadline", name, took-interruptWait)
	if took > interruptWait+time.Second {
		t.Errorf("%s: stopped %v after the deadline, want less than a second", name, took-interruptWait)
	}
}

// bigPrefabScene is a small text whose instances expand to n times
// 111,111 entities.
func bigPrefabScene(n int) string {
	return prefabFan(n)
}

// TestInterruptEachPhase: reading (YAML, XML, JSON), compiling (the
// expansion of prefabs) and building each stop within a second of
// Ctrl-C, and an interrupted build leaves no entity.
func TestInterruptEachPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("large scenes")
	}
	const n = 150_000
	for _, f := range []string{"yaml", "xml"} {
		data := scenegen.LoadScene(f, n)
		checkInterrupted(t, "read "+f, func(ctx context.Context) error {
			_, err := scenefile.ReadContext(ctx, "big."+f, data, scenefile.Limits{})
			return err
		})
	}
	dump := scenegen.JSONDump(n)
	checkInterrupted(t, "read json", func(ctx context.Context) error {
		_, err := scenefile.ReadContext(ctx, "big.json", dump, scenefile.Limits{})
		return err
	})

	doc, err := scenefile.Read("big.yaml", []byte(bigPrefabScene(8)), scenefile.Limits{}) // 888,888 entities
	if err != nil {
		t.Fatal(err)
	}
	checkInterrupted(t, "compile", func(ctx context.Context) error {
		_, err := plan.Compile(doc, newTestRegistry(t), plan.Options{Context: ctx})
		return err
	})

	reg := newTestRegistry(t)
	doc, err = scenefile.Read("big.yaml", []byte(bigPrefabScene(3)), scenefile.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := plan.Compile(doc, reg, plan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInterrupted(t, "build", func(ctx context.Context) error {
		_, err := live.BuildContext(ctx, pl, reg)
		return err
	})
	if n := reg.World().Len(); n != 0 {
		t.Errorf("an interrupted build left %d entities", n)
	}
}

// TestInterruptLoadFile: Ctrl-C during LoadFile of a scene whose
// prefabs expand to most of a million entities stops it within a
// second, whatever phase it is in, and leaves the World empty.
func TestInterruptLoadFile(t *testing.T) {
	if testing.Short() {
		t.Skip("large scenes")
	}
	file := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(file, []byte(bigPrefabScene(8)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, wait := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 200 * time.Millisecond} {
		reg := newTestRegistry(t)
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		start := time.Now()
		_, err := loader.LoadFile(reg, file, loader.Options{Context: ctx})
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("after %v: %v", wait, err)
		}
		if took > wait+time.Second {
			t.Errorf("interrupted after %v, it stopped %v later", wait, took-wait)
		}
		if n := reg.World().Len(); n != 0 {
			t.Errorf("an interrupted load left %d entities", n)
		}
	}
}

// TestReloaderRefusesBombs: a save that would pass a limit (any shape
// of prefab bomb) is refused like any broken save: errors at their
// place, in milliseconds, the running scene unchanged; the next good
// save applies.
func TestReloaderRefusesBombs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "scene.yaml")
	write := func(src string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(shipScene)
	reg := newTestRegistry(t)
	sc, err := loader.LoadFile(reg, file, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rl := &live.Reloader{Scene: sc, File: file}
	before := dump(t, reg)
	for _, tc := range prefabBombs {
		if !strings.HasSuffix(tc.file, ".yaml") {
			continue
		}
		rl.Options.Limits = tc.lim
		write(tc.src)
		var err error
		took, alloc := measure(func() { _, err = rl.Reload() })
		want := strings.Replace(tc.want, "a.yaml:", file+":", 1)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("%s: got %v, want an error starting %s", tc.name, err, want)
		}
		if took > time.Second || alloc > 128<<20 {
			t.Errorf("%s: refused in %v, allocating %d MB", tc.name, took, alloc>>20)
		}
		if rl.Scene != sc || dump(t, reg) != before {
			t.Fatalf("%s: the refused save changed the running scene", tc.name)
		}
	}
	rl.Options.Limits = scenefile.Limits{}
	write(strings.Replace(shipScene, "position: 5 0 0", "position: 6 0 0", 1))
	if d, err := rl.Reload(); err != nil || d.Summary() != "+0 -0 ~1" {
		t.Fatalf("the good save after them: %v %v", d, err)
	}
}
