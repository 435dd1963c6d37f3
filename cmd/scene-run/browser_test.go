package main

// Browser tests: the inspector's page (inspect/web) in a real headless
// Chromium, driven through chromedp, against scene-run run -inspect. They
// need a Chromium; without one they are skipped, saying how to get it.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var writeScreenshot = flag.Bool("screenshot", false, "TestBrowserScreenshot writes docs/inspector.png")

// Window size of the browser tests and the screenshot.
const pageWidth, pageHeight = 1440, 900

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel context.CancelFunc
	browserErr    error
	browserDir    string
)

// findChromium returns the Chromium to drive: $CHROMIUM, or chromium (or a
// Chrome) on the PATH; "" if there is none.
func findChromium() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser returns the context of one headless Chromium shared by the
// browser tests (started once, with a fresh profile), or skips the test
// when there is no Chromium.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := findChromium()
	if path == "" {
		t.Skip("no Chromium found: the browser tests need one (Debian/Ubuntu: apt-get install chromium; or set CHROMIUM=/path/to/chrome)")
	}
	browserOnce.Do(func() {
		browserDir, browserErr = os.MkdirTemp("", "scene-run-chromium")
		if browserErr != nil {
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.UserDataDir(browserDir),
			chromedp.Flag("headless", true),
			chromedp.Flag("no-sandbox", true), // root in CI containers
			// WebGL 2 in software, for the three.js view; the page is
			// composited in software too, which is faster here than
			// compositing through SwiftShader (about 28 view updates a
			// second against 13 to 26 on the 10,000 cubes).
			chromedp.Flag("use-angle", "swiftshader"),
			chromedp.Flag("enable-unsafe-swiftshader", true),
			chromedp.Flag("disable-gpu-compositing", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("no-first-run", true),
			chromedp.Flag("no-default-browser-check", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.Flag("hide-scrollbars", true),
			chromedp.Flag("mute-audio", true),
			chromedp.Flag("force-color-profile", "srgb"),
			chromedp.WindowSize(pageWidth, pageHeight),
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(alloc)
		browserErr = chromedp.Do(ctx) // starts the browser
		browserCtx = ctx
		browserCancel = func() { cancel(); cancelAlloc(); os.RemoveAll(browserDir) }
	})
	if browserErr != nil {
		t.Fatalf("starting Chromium (%s): %v", path, browserErr)
	}
	return browserCtx
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if browserCancel != nil {
		browserCancel()
	}
	os.Exit(code)
}

// page is the inspector's page open in a tab on a running scene-run.
type page struct {
	t      *testing.T
	ctx    context.Context
	base   string
	token  string
	cmd    *exec.Cmd
	out    *syncBuffer
	errb   *syncBuffer
	errors *syncBuffer // the page's JavaScript errors
}

// openPage starts scene-run with args (which include -inspect) and opens
// its page in a new tab, waiting until the tree and the view are filled.
func openPage(t *testing.T, args ...string) *page {
	t.Helper()
	bctx := browser(t)
	base, token, cmd, out, errb := startInspected(t, args...)
	p := &page{t: t, base: base, token: token, cmd: cmd, out: out, errb: errb, errors: &syncBuffer{}}
	// Uncaught exceptions and unhandled rejections of the page fail the test.
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok && e.ExceptionDetails != nil {
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil && d.Exception.Description != "" {
				msg += " " + d.Exception.Description
			}
			fmt.Fprintf(p.errors, "%s (%s:%d)\n", msg, d.URL, d.LineNumber+1)
		}
	}))
	t.Cleanup(cancel)
	p.ctx = ctx
	// The first run on a context opens its tab, which lives as long as
	// that run's context: no timeout on this one.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	p.do(
		chromedp.EmulateViewport(pageWidth, pageHeight),
		chromedp.Navigate(base+"/?token="+token),
	)
	p.waitJS(`window.inspector && inspector.view.count > 0 && document.querySelectorAll('#tree-list .row').length > 0`)
	t.Cleanup(func() {
		if errs := p.errors.String(); errs != "" {
			t.Errorf("the page threw:\n%s", errs)
		}
	})
	return p
}

// do runs browser actions, failing the test on an error.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v\nscene-run stderr:\n%s", err, p.errb.String())
	}
}

// eval evaluates a JavaScript expression and decodes its value into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](`JSON.stringify(`+expr+`)`))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		p.t.Fatalf("evaluating %s: %s: %v", expr, text, err)
	}
}

// waitFor is how long a browser test waits for a condition: generous, for
// a shared and busy machine; a condition met ends the wait at once.
const waitFor = 30 * time.Second

// waitJS waits until a JavaScript expression is true (at most waitFor).
func (p *page) waitJS(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(`+expr+`)`))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %s (%v)\nscene-run stderr:\n%s", expr, err, p.errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// typeInto replaces the text of the input matched by the CSS selector sel
// with text, typed key by key as a user would ("\n" presses Enter).
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	p.do(
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.querySelector(%q).select(), true)`, sel)))
			return err
		}),
		chromedp.SendKeys(chromedp.CSS(sel), text),
	)
}

// eventually calls check until it returns nil, failing the test with its
// last error after waitFor.
func (p *page) eventually(what string, check func() error) {
	p.t.Helper()
	deadline := time.Now().Add(waitFor)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: %v\nscene-run stderr:\n%s", what, err, p.errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// click clicks the element matched by the CSS selector sel, once: the
// page keeps its rows and boxes in place while the scene changes, so the
// element found is the one clicked. (A row may still move under the
// pointer when rows above it come or go: tests click rows that hold
// still, or pause the scene first.)
func (p *page) click(sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, waitFor)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
		p.t.Fatalf("clicking %s: %v\nscene-run stderr:\n%s", sel, err, p.errb.String())
	}
}

// pause pauses the scene and waits until the tree shows the paused World
// (the API's version, no load under way), so that its rows hold still.
func (p *page) pause() {
	p.t.Helper()
	if code, _ := p.post("POST", "/api/pause", ""); code != http.StatusOK {
		p.t.Fatalf("pause: %d", code)
	}
	var tr struct{ Version uint64 }
	p.api("/api/tree", &tr)
	p.waitJS(fmt.Sprintf(`inspector.tree.version === %d && !inspector.tree.loading`, tr.Version))
}

// api GETs a JSON answer of the scene-run's inspection API.
func (p *page) api(path string, out any) {
	p.t.Helper()
	res, err := http.Get(p.base + path)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		p.t.Fatalf("GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		p.t.Fatalf("GET %s: %v", path, err)
	}
}

// screenshot returns a PNG of the element matched by the CSS selector
// sel (or of the whole page for ""), encoded and decoded.
func (p *page) screenshot(sel string) ([]byte, image.Image) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	a := chromedp.CaptureScreenshot()
	if sel != "" {
		a = chromedp.Screenshot(chromedp.CSS(sel))
	}
	buf, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		p.t.Fatal(err)
	}
	return buf, img
}

// cliQuery runs scene-run query SCENE SELECTOR and returns the references
// it prints.
func cliQuery(t *testing.T, scene, sel string) []string {
	t.Helper()
	cmd := exec.Command(binary(t), "query", scene, sel)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("scene-run query %s %q: %v", scene, sel, err)
	}
	return strings.Fields(string(out))
}

// TestBrowserScreenshot writes docs/inspector.png, the page on the
// asteroids scene under -watch (spheres, a cone and boxes), with a
// selector typed and its results table, an entity selected with the
// gizmo on it, after a save's reload and an edit, when run with
// -screenshot:
//
//	go test ./cmd/scene-run -run TestBrowserScreenshot -args -screenshot
func TestBrowserScreenshot(t *testing.T) {
	if !*writeScreenshot {
		t.Skip("writes docs/inspector.png only with -args -screenshot")
	}
	file := copyScene(t, "asteroids.yaml")
	p := openPage(t, "run", "-watch", "-inspect", "127.0.0.1:0", file)
	p.watching()
	p.typeInto("#sel-input", "[enemy]")
	p.waitJS(`inspector.store.selector === '[enemy]' && document.querySelector('#sel-status').textContent === '3 matches'`)
	src, _ := os.ReadFile(file)
	edited := strings.NewReplacer("position: 0 15 0", "position: -1 14 0", `spin: "speed: 10"`, `spin: "speed: 30"`).Replace(string(src))
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelector('#log-list li.reload')`)
	// The bullets and the chips are gone: the rows hold still.
	p.waitJS(`inspector.view.count === 8 && document.querySelector('#tree-count').textContent === '8 entities'`)
	p.click(`#tree-list .row[data-ref="rock-2"]`)
	p.waitJS(`document.querySelector('#panel .comp[data-name="spin"]')`)
	p.typeInto(`#panel .comp[data-name="spin"] .prop[data-prop="speed"] input`, "90\n")
	p.waitJS(`document.querySelector('#log-list li.edit')`)
	p.click("#frame")
	p.typeInto("#table-columns", "position, spin.speed, geometry.primitive\n")
	p.waitJS(`inspector.gizmo.controls.object === inspector.gizmo.proxy && document.querySelectorAll('#table-body .trow').length === 3 && document.querySelectorAll('#table-head .tcell').length === 4`)
	p.waitJS(`inspector.plots.rate.series[0].points.length >= 6`) // some points in the plots
	buf, _ := p.screenshot("")
	if err := os.WriteFile("../../docs/inspector.png", buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// watching waits until scene-run says it watches the scene file.
func (p *page) watching() {
	p.t.Helper()
	p.eventually("the watcher", func() error {
		if !strings.Contains(p.errb.String(), "watching ") {
			return fmt.Errorf("scene-run has not said it is watching")
		}
		return nil
	})
}

// copyScene copies a scene of scenes/ into a temporary directory, with
// each edit (old, new) made to its text, and returns its path.
func copyScene(t *testing.T, name string, edits ...string) string {
	t.Helper()
	src, err := os.ReadFile("../../scenes/" + name)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			t.Fatalf("%s has no %q", name, edits[i])
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// post sends a change to the API with the run's token.
func (p *page) post(method, path, body string) (int, map[string]any) {
	p.t.Helper()
	req, err := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// treeRefs returns the references of the tree's rows in the DOM, in order.
func (p *page) treeRefs(sel string) []string {
	p.t.Helper()
	var refs []string
	p.eval(`[...document.querySelectorAll('#tree-list .row`+sel+`')].sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top)).map(r => r.dataset.ref)`, &refs)
	return refs
}

// waitTree waits until the tree's rows are want.
func (p *page) waitTree(want []string) {
	p.t.Helper()
	p.eventually("the tree", func() error {
		if got := p.treeRefs(""); !slices.Equal(got, want) {
			return fmt.Errorf("rows %q, want %q", got, want)
		}
		return nil
	})
}

// viewMatches returns the references of the entities the view draws in
// the selector's highlight colour.
func (p *page) viewMatches() []string {
	p.t.Helper()
	var refs []string
	p.eval(`(() => {
		const b = inspector.view.boxes;
		const c = [1, 178 / 255, 36 / 255].map(v => v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)); // #ffb224, linear
		return b.refs.filter((r, i) => c.every((v, k) => Math.abs(b.rgb[3 * i + k] - v) < 1e-4));
	})()`, &refs)
	return refs
}

// TestBrowserTree: the tree lists the entities in document order, with
// ids, classes and paths; a parent of 10,000 cubes starts folded and
// unfolds.
func TestBrowserTree(t *testing.T) {
	t.Run("asteroids", func(t *testing.T) {
		p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
		// Bullets expire: pause, so that the tree and the query see the
		// same scene.
		p.pause()
		var q struct{ Matches []string }
		p.api("/api/query?selector=*", &q)
		p.waitTree(q.Matches)
		for _, ref := range []string{"ship", "ship/0", "field", "rock-1", "rock-2", "wreck"} {
			if !slices.Contains(q.Matches, ref) {
				t.Errorf("the scene has no %s: %q", ref, q.Matches)
			}
		}
		var labels []string
		p.eval(`[...document.querySelectorAll('#tree-list .row')].map(r => [...r.querySelectorAll(':scope > :not(.twisty)')].map(x => x.textContent).join(''))`, &labels)
		for _, want := range []string{"#ship.player", "#ship/0.gun.left", "#wreck.debris"} {
			if !slices.Contains(labels, want) {
				t.Errorf("no row %q in %q", want, labels)
			}
		}
	})
	t.Run("cubes", func(t *testing.T) {
		p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/cubes.yaml")
		// Every entity but the 10,000 cubes, folded under their spawner.
		var q struct{ Matches []string }
		p.api("/api/query?selector=*", &q)
		rows := slices.DeleteFunc(q.Matches, func(ref string) bool { return strings.HasPrefix(ref, "cubes/") })
		if !slices.Contains(rows, "cubes") || len(rows) > 20 {
			t.Fatalf("the cube scene's entities: %q", rows)
		}
		p.waitTree(rows)
		var count string
		p.eval(`document.querySelector('#tree-count').textContent`, &count)
		if count != "10,003 entities" {
			t.Errorf("tree count %q", count)
		}
		p.click(`#tree-list .row[data-ref="cubes"] .twisty`)
		p.waitJS(`document.querySelector('#tree-list .row[data-ref="cubes/0"]')`)
		// The list is virtual: scrolled to the end, it shows the last cube.
		p.eval(`(() => { const l = document.querySelector('#tree-list'); l.scrollTop = l.scrollHeight; return true })()`, new(bool))
		p.waitJS(`document.querySelector('#tree-list .row[data-ref="cubes/9999"]')`)
		var n int
		p.eval(`document.querySelectorAll('#tree-list .row').length`, &n)
		if n > 200 {
			t.Errorf("%d rows in the DOM: the list should hold only those in sight", n)
		}
	})
}

// churnScene is cubes.yaml with 8 cubes living 0.2 to 0.6 s each, which
// the spawner replaces all the time: the tree's rows of the cubes come and
// go many times a second.
func churnScene(t *testing.T) string {
	t.Helper()
	return copyScene(t, "cubes.yaml", "count: 10000", "count: 8", "rate: 500", "rate: 30",
		"max: 10000", "max: 8", "lifetime: 30 60", "lifetime: 0.2 0.6")
}

// rowWatch is JavaScript (%q: the key of a row to follow) that marks the
// rows of the tree in the DOM when it starts (first) and counts, from a
// MutationObserver, what becomes of rows: born and gone; made again for
// an entity whose row was in the DOM (remade) or given another entity
// (rekeyed), which must not happen; the paths the followed row showed.
const rowWatch = `((follow) => {
	const spacer = document.querySelector('#tree-list .spacer');
	const w = window.rowWatch = {born: 0, gone: 0, remade: [], rekeyed: 0, paths: []};
	for (const r of spacer.children) { r.tag = r.dataset.key; r.first = true; }
	w.paths.push(spacer.querySelector('.row[data-key="' + follow + '"]').dataset.ref);
	new MutationObserver((ms) => {
		for (const m of ms) {
			if (m.type === 'attributes') {
				if (m.attributeName === 'data-key') w.rekeyed++;
				else if (m.target.dataset.key === follow && !w.paths.includes(m.target.dataset.ref)) w.paths.push(m.target.dataset.ref);
				continue;
			}
			if (m.target !== spacer) continue; // a row's own spans
			for (const n of m.addedNodes) if (!n.tag) { n.tag = n.dataset.key; w.born++; }
			for (const n of m.removedNodes) {
				if (n.isConnected) continue; // moved, not removed
				if (spacer.querySelector('.row[data-key="' + n.dataset.key + '"]')) w.remade.push(n.dataset.key); else w.gone++;
			}
		}
	}).observe(spacer, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-key', 'data-ref']});
	return true;
})(%q)`

// rowState is what TestBrowserTreeInPlace checks of the tree once the
// scene has changed under it.
type rowState struct {
	Remade            []string
	Rekeyed           int
	Paths             []string
	CameraKept, Hover bool
	KeeperKept        bool
	KeeperRef         string
	Selected, Key     string
	SelectedRows      []string
	Focused           bool
	Born, Gone        int
}

// TestBrowserTreeInPlace: while the scene spawns and expires entities,
// the tree keeps each entity's row element (no row is made again, none
// is given another entity), the hover and the focus stay, the selection
// follows its entity when the entity's path shifts, and a click on a
// twisty works.
func TestBrowserTreeInPlace(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", churnScene(t))
	// Four entities, then the keeper, under the camera: rows above the
	// churning cubes, so they hold still until the test removes the
	// four, which shifts the keeper's path from camera/4 to camera/0.
	var handle string
	for i := range 5 {
		body := `{"parent": "camera"}`
		if i == 4 {
			body = `{"parent": "camera", "class": "keeper"}`
		}
		code, ans := p.post("POST", "/api/entities", body)
		if code != http.StatusCreated {
			t.Fatalf("creating %s: %d %v", body, code, ans)
		}
		handle, _ = ans["handle"].(string)
	}
	keeper := fmt.Sprintf(`#tree-list .row[data-key=%q]`, handle)
	p.waitJS(`document.querySelector('` + keeper + `')?.dataset.ref === 'camera/4'`)
	var fits bool
	p.eval(`(l => l.querySelector('.spacer').offsetHeight + 3 * 22 <= l.clientHeight)(document.querySelector('#tree-list'))`, &fits)
	if !fits {
		t.Fatal("the tree's rows do not all fit in sight: rows scrolled out would leave the DOM, as they should")
	}
	p.click(keeper)
	p.waitJS(fmt.Sprintf(`inspector.store.key === %q && document.querySelector('#panel .meta')?.textContent.includes('.keeper')`, handle))
	var at []float64
	p.eval(`(b => [b.x + b.width / 2, b.y + b.height / 2])(document.querySelector('#tree-list .row[data-ref="camera"]').getBoundingClientRect())`, &at)
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, at[0], at[1]))
	p.waitJS(`document.querySelector('#tree-list .row[data-ref="camera"]').matches(':hover')`)
	p.eval(fmt.Sprintf(rowWatch, handle), new(bool))

	for range 4 {
		if code, ans := p.post("DELETE", "/api/entities/camera/0", ""); code != http.StatusOK {
			t.Fatalf("removing camera/0: %d %v", code, ans)
		}
	}
	// Let the spawner replace the cubes many times over, and the tree
	// take the keeper's new path.
	p.waitJS(fmt.Sprintf(`inspector.tree.byKey.get(%q)?.ref === 'camera/0' && rowWatch.born >= 30 && rowWatch.gone + rowWatch.remade.length >= 30`, handle))
	var st rowState
	p.eval(`(() => {
		const w = rowWatch, s = inspector.store;
		const camera = document.querySelector('#tree-list .row[data-ref="camera"]');
		const keeper = document.querySelector('`+keeper+`');
		return {remade: w.remade, rekeyed: w.rekeyed, paths: w.paths, born: w.born, gone: w.gone,
			cameraKept: !!camera.first, hover: camera.matches(':hover'),
			keeperKept: !!keeper.first, keeperRef: keeper.dataset.ref,
			selected: s.selected, key: s.key,
			selectedRows: [...document.querySelectorAll('#tree-list .row.selected')].map(r => r.dataset.ref),
			focused: document.activeElement === document.querySelector('#tree-list')};
	})()`, &st)
	t.Logf("rows born %d, gone %d; the keeper's paths %q", st.Born, st.Gone, st.Paths)
	if len(st.Remade) > 0 || st.Rekeyed > 0 {
		t.Errorf("rows made again for entities that had one: %q; rows given another entity: %d", st.Remade, st.Rekeyed)
	}
	if !st.CameraKept || !st.Hover || !st.KeeperKept || !st.Focused {
		t.Errorf("camera's row kept %v, hovered %v; keeper's row kept %v; tree focused %v", st.CameraKept, st.Hover, st.KeeperKept, st.Focused)
	}
	if st.KeeperRef != "camera/0" || st.Selected != "camera/0" || st.Key != handle || !slices.Equal(st.SelectedRows, []string{"camera/0"}) {
		t.Errorf("the selection did not follow the keeper to camera/0: row %q, selected %q (%q), rows marked %q", st.KeeperRef, st.Selected, st.Key, st.SelectedRows)
	}
	p.waitJS(`document.querySelector('#panel h2')?.textContent === 'camera/0'`)
	foldInPlace(p)
}

// foldInPlace clicks the twisty of the spawner's row, which folds its
// churning children away, then again, which unfolds them, the row
// staying the same element throughout.
func foldInPlace(p *page) {
	p.t.Helper()
	twisty := `#tree-list .row[data-ref="cubes"] .twisty`
	kept := `document.querySelector('#tree-list .row[data-ref="cubes"]').first`
	p.click(twisty)
	p.waitJS(kept + ` && document.querySelector('` + twisty + `').textContent === '▸' && !document.querySelector('#tree-list .row[data-ref^="cubes/"]')`)
	p.click(twisty)
	p.waitJS(kept + ` && document.querySelector('` + twisty + `').textContent === '▾' && document.querySelector('#tree-list .row[data-ref^="cubes/"]')`)
	var remade []string
	p.eval(`rowWatch.remade`, &remade)
	if len(remade) > 0 {
		p.t.Errorf("rows made again while folding: %q", remade)
	}
}

// TestBrowserPanelInPlace: components added to and removed from the
// selected entity (here through the API) change the panel in place: the
// field being typed in keeps its element, its focus and its text, and the
// name picked in "add component" stays picked.
func TestBrowserPanelInPlace(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	p.pause()
	p.click(`#tree-list .row[data-ref="wreck"]`)
	speed := `#panel .comp[data-name="spin"] .prop[data-prop="speed"] input`
	adder := `#panel form.adder select`
	p.waitJS(`document.querySelector('` + speed + `') && document.querySelector('` + adder + ` option[value="lifetime"]')`)
	p.do(chromedp.SetValue(chromedp.CSS(adder), "lifetime"))
	p.typeInto(speed, "7") // no Enter: being typed
	p.eval(`(() => { document.querySelector('`+speed+`').tag = 'speed'; document.querySelector('`+adder+`').tag = 'adder';
		document.querySelector('#panel .comp[data-name="spin"]').tag = 'spin'; return true })()`, new(bool))
	check := func(when string) {
		t.Helper()
		var st struct {
			Spin, Speed, Focused, Adder bool
			Text, Picked                string
			Offered                     []string
		}
		p.eval(`(() => { const s = document.querySelector('`+speed+`'), a = document.querySelector('`+adder+`');
			return {spin: document.querySelector('#panel .comp[data-name="spin"]').tag === 'spin', speed: s.tag === 'speed',
				focused: document.activeElement === s, text: s.value, adder: a.tag === 'adder', picked: a.value,
				offered: [...a.options].map(o => o.value)} })()`, &st)
		if !st.Spin || !st.Speed || !st.Focused || st.Text != "7" || !st.Adder || st.Picked != "lifetime" {
			t.Errorf("%s: spin's box kept %v; speed's field kept %v, focused %v, text %q; adder kept %v, picked %q",
				when, st.Spin, st.Speed, st.Focused, st.Text, st.Adder, st.Picked)
		}
		if slices.Contains(st.Offered, "alive") == strings.Contains(when, "added") {
			t.Errorf("%s: offered %q", when, st.Offered)
		}
	}
	if code, ans := p.post("PUT", "/api/entities/wreck/components/alive", ""); code != http.StatusOK {
		t.Fatalf("adding alive: %d %v", code, ans)
	}
	p.waitJS(`document.querySelector('#panel .comp[data-name="alive"]')`)
	check("alive added")
	if code, ans := p.post("DELETE", "/api/entities/wreck/components/alive", ""); code != http.StatusOK {
		t.Fatalf("removing alive: %d %v", code, ans)
	}
	p.waitJS(`!document.querySelector('#panel .comp[data-name="alive"]') && document.querySelector('` + adder + ` option[value="alive"]')`)
	check("alive removed")
}

// TestBrowserAddComponent: "add component" offers exactly the components
// the entity lacks that are not read-only (GET /api/components marks
// them readOnly): never world or prefab, which the API refuses to set.
func TestBrowserAddComponent(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	p.pause()
	// field is a plain entity: no prefab, so only the read-only mark
	// keeps prefab out of the list.
	p.click(`#tree-list .row[data-ref="field"]`)
	adder := `#panel form.adder select`
	p.waitJS(`document.querySelector('#panel h2')?.textContent === '#field' && document.querySelector('` + adder + `')`)
	var comps struct {
		Components []struct {
			Name     string
			ReadOnly bool
		}
	}
	p.api("/api/components", &comps)
	var e struct{ Components []struct{ Name string } }
	p.api("/api/entities/field", &e)
	has := map[string]bool{}
	for _, c := range e.Components {
		has[c.Name] = true
	}
	readOnly := map[string]bool{}
	var want []string
	for _, c := range comps.Components {
		if c.ReadOnly {
			readOnly[c.Name] = true
		} else if !has[c.Name] {
			want = append(want, c.Name)
		}
	}
	slices.Sort(want)
	for _, name := range []string{"world", "prefab"} {
		if !readOnly[name] || has[name] {
			t.Errorf("GET /api/components marks %s read-only: %v; field has it: %v", name, readOnly[name], has[name])
		}
	}
	var offered []string
	p.eval(`[...document.querySelectorAll('`+adder+` option')].map(o => o.value).filter(v => v)`, &offered)
	if !slices.Equal(offered, want) {
		t.Errorf("offered %q\nwant    %q", offered, want)
	}
	for _, name := range []string{"lifetime", "velocity", "alive"} {
		if !slices.Contains(offered, name) {
			t.Errorf("%s is not offered: %q", name, offered)
		}
	}
	for _, name := range []string{"world", "prefab", "position"} {
		if slices.Contains(offered, name) {
			t.Errorf("%s is offered: %q", name, offered)
		}
	}
}

// TestBrowserSelector: typing a selector highlights in the tree and the
// view exactly what scene-run query prints, with the count; a selector
// that does not compile shows its error and column.
func TestBrowserSelector(t *testing.T) {
	for _, c := range []struct{ scene, sel, count, bad string }{
		{"scenes/asteroids.yaml", "[enemy]:not([alive])", "1 match", "[enemy]:not([alive]"},
		{"scenes/cubes.yaml", "#ground, #camera", "2 matches", "#ground, [camera"},
	} {
		t.Run(filepath.Base(c.scene), func(t *testing.T) {
			p := openPage(t, "run", "-inspect", "127.0.0.1:0", c.scene)
			want := cliQuery(t, c.scene, c.sel)
			p.typeInto("#sel-input", c.sel)
			// The matches of the whole selector, not of a prefix typed
			// so far (the box runs what it holds after each pause).
			p.waitJS(fmt.Sprintf(`inspector.store.selector === %q && document.querySelector('#sel-status').textContent === %q`, c.sel, c.count))
			// The tree marks them as it takes them.
			if got := p.treeRefs(".match"); !slices.Equal(got, want) {
				t.Errorf("tree highlights %q; scene-run query prints %q", got, want)
			}
			// The view recolours its boxes once it has their references,
			// which come on their own request.
			p.eventually("the view's highlights", func() error {
				if got := p.viewMatches(); !slices.Equal(got, want) {
					return fmt.Errorf("view highlights %q; scene-run query prints %q", got, want)
				}
				return nil
			})

			bad := c.bad
			var apiErr struct {
				Error string
				Col   int
			}
			res, err := http.Get(p.base + "/api/query?selector=" + url.QueryEscape(bad))
			if err != nil {
				t.Fatal(err)
			}
			json.NewDecoder(res.Body).Decode(&apiErr)
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || apiErr.Col == 0 {
				t.Fatalf("the API takes %q: %d %+v", bad, res.StatusCode, apiErr)
			}
			p.typeInto("#sel-input", bad)
			// A prefix typed so far may show its own error first: wait
			// for the whole selector's.
			wantShown := bad + "\n" + strings.Repeat(" ", apiErr.Col-1) + "^\n" + apiErr.Error
			p.eventually("the selector's error", func() error {
				var shown struct {
					Hidden bool
					Text   string
				}
				p.eval(`(e => ({hidden: e.hidden, text: e.textContent}))(document.querySelector('#sel-error'))`, &shown)
				if shown.Hidden || shown.Text != wantShown {
					return fmt.Errorf("error shown (hidden %v):\n%s\nwant:\n%s", shown.Hidden, shown.Text, wantShown)
				}
				return nil
			})
			if got := p.treeRefs(".match"); len(got) != 0 {
				t.Errorf("a bad selector still highlights %q", got)
			}
		})
	}
}

// spinSpeed returns the live speed of the wreck's spin, from the API.
func (p *page) spinSpeed() float64 {
	p.t.Helper()
	var e struct {
		Components []struct {
			Name  string
			Value map[string]any
		}
	}
	p.api("/api/entities/wreck", &e)
	for _, c := range e.Components {
		if c.Name == "spin" {
			return c.Value["speed"].(float64)
		}
	}
	p.t.Fatal("the wreck has no spin")
	return 0
}

// TestBrowserEdit: a value edited in the panel changes the live World; a
// bad value shows the parser's message beside the field and changes
// nothing; with "save to file" on, an edit is saved into the file.
func TestBrowserEdit(t *testing.T) {
	file := copyScene(t, "asteroids.yaml")
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", file)
	p.pause() // bullets and chips expire: the wreck's row would move
	p.click(`#tree-list .row[data-ref="wreck"]`)
	speed := `#panel .comp[data-name="spin"] .prop[data-prop="speed"]`
	p.waitJS(`document.querySelector('` + speed + ` input')`)
	if got := p.spinSpeed(); got != 10 {
		t.Fatalf("speed %v before the edit", got)
	}

	p.typeInto(speed+" input", "5\n")
	p.eventually("the edit reaching the World", func() error {
		if got := p.spinSpeed(); got != 5 {
			return fmt.Errorf("speed %v", got)
		}
		return nil
	})

	p.typeInto(speed+" input", "abc\n")
	p.waitJS(`document.querySelector('` + speed + ` .err').textContent !== ''`)
	var shown string
	p.eval(`document.querySelector('`+speed+` .err').textContent`, &shown)
	code, ans := p.post("PUT", "/api/entities/wreck/components/spin", "speed: abc")
	if code != http.StatusBadRequest || shown != ans["error"] {
		t.Errorf("shown %q; the API says %d %q", shown, code, ans["error"])
	}
	var bad bool
	p.eval(`document.querySelector('`+speed+` input').classList.contains('bad')`, &bad)
	if !bad {
		t.Error("the field is not marked bad")
	}
	if got := p.spinSpeed(); got != 5 {
		t.Errorf("a bad value changed the World: speed %v", got)
	}

	// With "save to file" ticked in the top bar, the next edit is also
	// written into the file, and nothing else is.
	before, _ := os.ReadFile(file)
	p.click("#save-edits")
	p.waitJS(`inspector.save.on && document.querySelector('#panel .save-note.on')`)
	p.typeInto(speed+" input", "6\n")
	p.eventually("the saved edit", func() error {
		after, _ := os.ReadFile(file)
		if want := strings.Replace(string(before), `spin: "speed: 10"`, `spin: "speed: 6"`, 1); string(after) != want {
			var msg string
			p.eval(`document.querySelector('`+speed+` .err').textContent`, &msg)
			return fmt.Errorf("the page says %q; the file:\n%s", msg, after)
		}
		return wantSpeed(p, 6)
	})
}

// TestBrowserWatch: a save under -watch moves the entity in the view and
// shows its diff in the reload log; a broken save shows its errors with
// file:line:col.
func TestBrowserWatch(t *testing.T) {
	file := copyScene(t, "asteroids.yaml")
	p := openPage(t, "run", "-watch", "-inspect", "127.0.0.1:0", file)
	p.watching()
	src, _ := os.ReadFile(file)
	moved := strings.Replace(string(src), "position: 0 15 0", "position: 4 15 0", 1)
	if err := os.WriteFile(file, []byte(moved), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`[...document.querySelectorAll('#log-list li.reload .line')].some(l => l.textContent === '~ #wreck position 0 15 0 → 4 15 0')`)
	p.waitJS(`(p => p && p[0] === 4 && p[1] === 15)(inspector.view.positionOf('wreck'))`)
	// With nothing selected, the reload leaves the panel as it was: once
	// the page has taken the reload's schemas (and so refreshed the
	// panel), the panel has asked for no entity and still says so.
	p.waitJS(`inspector.panel.schemaLoads >= 2`)
	var panel struct {
		Text  string
		Asked int
	}
	p.eval(`({text: document.querySelector('#panel').textContent, asked: inspector.panel.asked})`, &panel)
	if panel.Text != "Select an entity in the tree or the view." || panel.Asked != 0 {
		t.Errorf("panel after a reload with nothing selected: %q, %d entity requests", panel.Text, panel.Asked)
	}

	broken := strings.Replace(moved, "position: 4 15 0", "position: 4 15 zero", 1)
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	p.waitJS(`document.querySelector('#log-list li.failed .line.error')`)
	var lines []string
	p.eval(`[...document.querySelectorAll('#log-list li.failed .line.error')].map(l => l.textContent)`, &lines)
	pos := regexp.MustCompile(`asteroids\.yaml:\d+:\d+: `)
	if len(lines) == 0 || !pos.MatchString(lines[0]) || !strings.Contains(lines[0], "zero") {
		t.Errorf("failed reload shows %q", lines)
	}
}

// canvasInk returns the share of the view's pixels that differ from its
// background, and the number of distinct colours among them.
func canvasInk(img image.Image) (float64, int) {
	b := img.Bounds()
	bg := img.At(b.Min.X, b.Min.Y) // a corner: background
	br, bgc, bb, _ := bg.RGBA()
	ink := 0
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if absDiff(r, br)+absDiff(g, bgc)+absDiff(bl, bb) > 3*20*257 {
				ink++
				colours[[3]uint32{r >> 12, g >> 12, bl >> 12}] = true
			}
		}
	}
	return float64(ink) / float64(b.Dx()*b.Dy()), len(colours)
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestBrowserCanvas: the view draws something: its canvas is not blank.
func TestBrowserCanvas(t *testing.T) {
	for _, scene := range []string{"scenes/asteroids.yaml", "scenes/cubes.yaml"} {
		t.Run(filepath.Base(scene), func(t *testing.T) {
			p := openPage(t, "run", "-inspect", "127.0.0.1:0", scene)
			p.waitJS(`inspector.view.updates > 2`)
			_, img := p.screenshot("#view canvas")
			ink, colours := canvasInk(img)
			t.Logf("%.1f%% of the canvas drawn, in %d colours", 100*ink, colours)
			if ink < 0.002 || colours < 3 {
				t.Errorf("the view looks blank: %.2f%% of its pixels drawn, %d colours", 100*ink, colours)
			}
		})
	}
}

// TestBrowserRunControls: the page's pause, step and play buttons stop,
// step and restart the simulation.
func TestBrowserRunControls(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	var st struct {
		Ticks  int
		Paused bool
	}
	stats := func() {
		p.t.Helper()
		p.api("/api/stats", &st)
	}
	waitStats := func(what string, ok func() bool) {
		t.Helper()
		p.eventually(what, func() error {
			if stats(); !ok() {
				return fmt.Errorf("stats %+v", st)
			}
			return nil
		})
	}
	p.click("#pause")
	waitStats("pause", func() bool { return st.Paused })
	paused := st.Ticks
	// Nothing to wait for: a window in which ticks must not go on.
	time.Sleep(300 * time.Millisecond)
	if stats(); st.Ticks != paused {
		t.Fatalf("ticks went on while paused: %d → %d", paused, st.Ticks)
	}
	p.waitJS(`document.querySelector('#pause').disabled && !document.querySelector('#play').disabled`)
	p.typeInto("#steps", "3")
	p.click("#step")
	waitStats("step 3", func() bool { return st.Ticks == paused+3 })
	time.Sleep(200 * time.Millisecond) // a window in which no fourth tick may come
	if stats(); st.Ticks != paused+3 || !st.Paused {
		t.Fatalf("after step 3 from %d: %+v", paused, st)
	}
	p.click("#play")
	waitStats("play", func() bool { return !st.Paused && st.Ticks > paused+3 })
}

// TestBrowserPick: clicking an entity in the view selects it in the tree
// and shows its components; selecting in the tree outlines it in the view.
func TestBrowserPick(t *testing.T) {
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	p.pause()
	p.waitJS(`inspector.view.positionOf('rock-2')`)
	var pt []float64
	p.eval(`inspector.view.screenPoint('rock-2')`, &pt)
	p.do(chromedp.MouseClickXY(pt[0], pt[1]))
	p.waitJS(`inspector.store.selected === 'rock-2'`)
	p.waitJS(`document.querySelector('#tree-list .row.selected')?.dataset.ref === 'rock-2'`)
	p.waitJS(`document.querySelector('#panel h2')?.textContent === '#rock-2'`)

	p.click(`#tree-list .row[data-ref="wreck"]`)
	p.waitJS(`inspector.store.selected === 'wreck'`)
	p.waitJS(`inspector.view.outline.matrix.elements[13] === 15`) // placed at the next frame
	var outline struct {
		Visible  bool
		At, Want []float64
	}
	p.eval(`(() => { const v = inspector.view; const e = v.outline.matrix.elements;
		return {visible: v.outline.visible, at: [e[12], e[13], e[14]], want: v.positionOf('wreck')} })()`, &outline)
	if !outline.Visible || !slices.Equal(outline.At, outline.Want) {
		t.Errorf("outline %+v", outline)
	}
}

var measure = flag.Bool("measure", false, "TestBrowserMeasure measures the view's update rate and the page's cost to the simulation")

// median returns the median of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// TestBrowserMeasure measures, with -measure, on the 10,000-cube scene:
// the view's updates per second and bytes per update in headless
// Chromium (cubes.yaml without gravity, so that the cubes stay in sight),
// and the simulation's ticks per second running flat out without a
// client, with a client reading the page's transform stream, and with
// the page open (docs/inspector.md quotes them):
//
//	go test ./cmd/scene-run -run TestBrowserMeasure -v -args -measure
func TestBrowserMeasure(t *testing.T) {
	if !*measure {
		t.Skip("measures only with -args -measure")
	}
	scene := "scenes/cubes.yaml"
	if src, _ := os.ReadFile("../../" + scene); strings.Contains(string(src), "gravity: 0 -9.8 0") {
		scene = copyScene(t, "cubes.yaml", "gravity: 0 -9.8 0", "gravity: 0 0 0")
	}
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", scene)
	p.waitJS(`inspector.view.updates > 2`)
	time.Sleep(2 * time.Second) // past the first second's count
	var rates []float64
	var bytesPerUpdate int
	for range 5 {
		time.Sleep(time.Second)
		var r float64
		p.eval(`Number(document.querySelector('#view-info').dataset.rate)`, &r)
		rates = append(rates, r)
	}
	p.eval(`Number(document.querySelector('#view-info').dataset.bytes)`, &bytesPerUpdate)
	rate := median(rates)
	t.Logf("view: %.0f updates/s (median of %v), %d bytes per update", rate, rates, bytesPerUpdate)
	if rate < 20 {
		t.Errorf("the view updates %.0f times a second, fewer than 20", rate)
	}

	// Flat out (-realtime=false), so that ticks/s shows what a client
	// costs. Runs with and without a client alternate, four times each,
	// so that the other work of a shared machine weighs on both alike.
	base, _, _, _, _ := startInspected(t, "run", "-realtime=false", "-inspect", "127.0.0.1:0", scene)
	// sample adds the ticks per second of a 2-second window.
	sample := func(xs *[]float64) { *xs = append(*xs, tickRate(t, base, 2*time.Second)) }
	var bare, streamed, paged []float64
	var streamBytes int64
	for range 4 {
		sample(&bare)
		// A client reading the page's stream and nothing else: what
		// serving it costs the simulation.
		ctx, cancel := context.WithCancel(context.Background())
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/transforms/stream?components=position,scale&selector=%5Bposition%5D&fps=30", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("stream: %v %v", err, res)
		}
		read := make(chan int64)
		go func() { n, _ := io.Copy(io.Discard, res.Body); read <- n }()
		sample(&streamed)
		cancel()
		res.Body.Close()
		streamBytes += <-read
		sample(&bare)
		// The page itself, drawing in Chromium on the same two cores.
		p.do(chromedp.Navigate(base + "/"))
		p.waitJS(`window.inspector && inspector.view.updates > 2`)
		sample(&paged)
		p.do(chromedp.Navigate("about:blank"))
	}
	b, st, pg := median(bare), median(streamed), median(paged)
	t.Logf("simulation, flat out (medians): %.0f ticks/s without a client %v; %.0f (%.2f) with a client reading the stream %v (%.1f MB/s); %.0f (%.2f) with the page open %v",
		b, bare, st, st/b, streamed, float64(streamBytes)/8/(1<<20), pg, pg/b, paged)
}
