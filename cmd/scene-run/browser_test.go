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
	"net/http"
	"os"
	"os/exec"
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
			// WebGL 2 in software, for the three.js view.
			chromedp.Flag("use-angle", "swiftshader"),
			chromedp.Flag("enable-unsafe-swiftshader", true),
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

// waitJS waits until a JavaScript expression is true (at most 15 s).
func (p *page) waitJS(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
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

// click clicks the element matched by the CSS selector sel.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
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
// asteroids scene with an entity selected, a selector typed and an edit
// in the log, when run with -screenshot:
//
//	go test ./cmd/scene-run -run TestBrowserScreenshot -args -screenshot
func TestBrowserScreenshot(t *testing.T) {
	if !*writeScreenshot {
		t.Skip("writes docs/inspector.png only with -args -screenshot")
	}
	p := openPage(t, "run", "-inspect", "127.0.0.1:0", "scenes/asteroids.yaml")
	p.typeInto("#sel-input", "[enemy]")
	p.waitJS(`document.querySelector('#sel-status').textContent === '3 matches'`)
	p.click(`#tree-list .row[data-ref="rock-2"]`)
	p.waitJS(`document.querySelector('#panel .comp[data-name="spin"]')`)
	p.typeInto(`#panel .comp[data-name="spin"] .prop[data-prop="speed"] input`, "90\n")
	p.waitJS(`document.querySelector('#log-list li.edit')`)
	time.Sleep(4 * time.Second) // some points in the plots
	buf, _ := p.screenshot("")
	if err := os.WriteFile("../../docs/inspector.png", buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
