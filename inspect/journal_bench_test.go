package inspect

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// bigScene writes a scene file of n entities (n/10 roots with 10
// children each, as the loader's reload benchmarks make them).
func bigScene(n int) []byte {
	var b strings.Builder
	b.WriteString("mixins:\n")
	for i := range 10 {
		fmt.Fprintf(&b, "  m%d: {velocity: 0 %d 0, spin: \"speed: %d\"}\n", i, i, 50+i)
	}
	b.WriteString("entities:\n")
	for r := range n / 10 {
		fmt.Fprintf(&b, "  - id: r%d\n    mixin: m%d\n    position: %d 0 0\n    children:\n", r, r%10, r)
		b.WriteString("      - position: 0 1 0\n")
		for c := 1; c < 10; c++ {
			fmt.Fprintf(&b, "      - id: r%dc%d\n        position: %d 0 0\n        rotation: 0 %d 0\n", r, c, c, c*10)
		}
	}
	return []byte(b.String())
}

// BenchmarkUndoSaved measures POST /api/undo of a change saved into a
// 10,000-entity scene file (PUT ?save=1 of one property, not timed):
// from the request to the answer, the file written back and the World
// restored, served by a simulation goroutine that drains requests as
// they come. BenchmarkSaveSetHTTP, the save itself, is the baseline.
func BenchmarkUndoSaved(b *testing.B) { benchSaved(b, true) }

// BenchmarkSaveSetHTTP measures PUT ?save=1 of one property of the same
// scene: the save-back, the baseline of BenchmarkUndoSaved.
func BenchmarkSaveSetHTTP(b *testing.B) { benchSaved(b, false) }

func benchSaved(b *testing.B, undo bool) {
	file := filepath.Join(b.TempDir(), "scene.yaml")
	if err := os.WriteFile(file, bigScene(10000), 0o644); err != nil {
		b.Fatal(err)
	}
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		b.Fatal(err)
	}
	sc, err := loader.LoadFile(reg, file, loader.Options{})
	if err != nil {
		b.Fatal(err)
	}
	in := New(reg, Options{Reloader: &live.Reloader{Scene: sc, File: file, Recheck: -1}})
	srv := httptest.NewServer(in)
	defer srv.Close()
	defer in.Close()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-in.Wake():
				// Time to spare, as scene-run's paced loop gives: not
				// bound by the share (a save costs more than it).
				in.DrainUntil(time.Now().Add(time.Second))
			}
		}
	}()
	post := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+in.Token())
		res, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		msg, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, msg)
		}
	}
	i := 0
	for b.Loop() {
		i++
		if undo {
			b.StopTimer()
		}
		post("PUT", "/api/entities/r500c3/components/position?save=1", strconv.Itoa(i)+" 0 0")
		if undo {
			b.StartTimer()
			post("POST", "/api/undo", "")
		}
	}
}
