package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// countFetches wraps the page's fetch to count requests by path, in
// window.fetches.
const countFetches = `(() => {
  const counts = {};
  const original = window.fetch;
  window.fetch = function (url, opts) {
    const path = String(url).split('?')[0];
    counts[path] = (counts[path] || 0) + 1;
    return original.call(this, url, opts);
  };
  window.fetches = counts;
  return true;
})()`

// TestBrowserYield: a page on the simulation's machine yields to a
// simulation run flat out (GET /api/stats' load near 1): it asks for at
// most 5 frames a second, fetches the references and the tree about once
// a second, and says so beside the rate; with ?yield=0 it does not, and
// on a paced run (load near 0) it does not either.
func TestBrowserYield(t *testing.T) {
	scene := copyScene(t, "cubes.yaml", "gravity: 0 -9.8 0", "gravity: 0 0 0")
	p := openPage(t, "run", "-realtime=false", "-inspect", "127.0.0.1:0", scene)
	if load := getStats(t, p.base).Load; load < 0.75 {
		t.Fatalf("a run flat out has a load of %.2f, want 0.75 or more", load)
	}
	p.waitJS(`inspector.stream.yielding && inspector.stream.fps <= 5 && document.querySelector('#view-info').dataset.yielding === 'true'`)
	var info string
	p.eval(`document.querySelector('#view-info').textContent`, &info)
	if want := "yielding to the simulation"; !strings.Contains(info, want) {
		t.Errorf("view info %q does not say %q", info, want)
	}
	var ok bool
	p.eval(countFetches, &ok)
	var u0, u1 int
	p.eval(`inspector.view.updates`, &u0)
	time.Sleep(4 * time.Second)
	p.eval(`inspector.view.updates`, &u1)
	var counts map[string]int
	p.eval(`window.fetches`, &counts)
	var fps int
	p.eval(`inspector.stream.fps`, &fps)
	t.Logf("yielding, in 4 s: %d view updates, requests %v, stream at %d frames/s", u1-u0, counts, fps)
	// Once a second each, and one more for a window that starts just
	// before a fetch.
	if counts["api/tree"] > 5 || counts["api/query"] > 5 || counts["api/colors"] > 5 {
		t.Errorf("yielding, the page fetched %v in 4 s: want the tree, references and colours at most once a second", counts)
	}
	// The cubes have no rotation: the stream leaves it out, and is not
	// opened again for the structure changing in every frame.
	var cols string
	p.eval(`inspector.stream.cols.join()`, &cols)
	if cols != "position,scale" || counts["api/transforms/stream"] > 0 {
		t.Errorf("the stream carries %s and was opened %d times in 4 s: want position,scale, opened once", cols, counts["api/transforms/stream"])
	}
	if u1-u0 < 2 || fps > 5 {
		t.Errorf("yielding, the view updated %d times in 4 s, the stream at %d frames/s: want a live view at 5 frames/s at most", u1-u0, fps)
	}

	// ?yield=0: the same run, drawn at the page's full rate.
	p.do(chromedp.Navigate(p.base + "/?token=" + p.token + "&yield=0"))
	p.waitJS(`window.inspector && inspector.view.updates > 2 && inspector.run && document.querySelector('#view-info').dataset.yielding === 'false'`)
	// Stats events come with the load near 1; the page must not start
	// yielding on them, and asks for 10 frames a second or more.
	p.waitJS(`inspector.stream.yielding === false && inspector.stream.fps >= 10 && inspector.stream.lastLoad >= 0.75`)
	deadline := time.Now().Add(1500 * time.Millisecond)
	for time.Now().Before(deadline) {
		p.eval(`inspector.stream.yielding === false && inspector.stream.fps >= 10`, &ok)
		if !ok {
			p.eval(`inspector.stream.fps`, &fps)
			t.Fatalf("with ?yield=0 the page yields, or asks for %d frames/s (want 10 or more)", fps)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The references up to four times a second, but the shapes and the
	// columns the stream leaves out looked for once a second each (a
	// one-row GET /api/table).
	p.eval(countFetches, &ok)
	time.Sleep(3 * time.Second)
	p.eval(`window.fetches`, &counts)
	t.Logf("not yielding, in 3 s: requests %v", counts)
	if counts["api/table"] > 8 {
		t.Errorf("not yielding, the page asked GET /api/table %d times in 3 s: want the shapes and the columns at most once a second each", counts["api/table"])
	}

	// A paced run: nothing to yield to.
	base, token, _, _, _ := startInspected(t, "run", "-inspect", "127.0.0.1:0", scene)
	p.do(chromedp.Navigate(base + "/?token=" + token))
	p.waitJS(`window.inspector && inspector.view.updates > 2 && inspector.run`)
	waitUntil(t, 10*time.Second, func() bool { return getStats(t, base).Load <= 0.5 },
		func() string {
			return fmt.Sprintf("a paced run has a load of %.2f, want under 0.5", getStats(t, base).Load)
		})
	// The page has taken a load of the paced run: it does not yield.
	p.waitJS(`inspector.stream.lastLoad !== undefined && inspector.stream.lastLoad <= 0.5`)
	p.eval(`inspector.stream.yielding`, &ok)
	if ok {
		t.Error("the page yields to a paced run")
	}
}

// waitUntil polls cond until it holds, failing with msg() after d.
func waitUntil(t *testing.T, d time.Duration, cond func() bool, msg func() string) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal(msg())
		}
	}
}
