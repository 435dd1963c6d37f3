package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// The README's commands for a released scenecs (go get ...@latest, go
// install .../cmd/scene-run@latest) fetch the module zip a module proxy
// makes of the repository. The zip leaves some files out (those of a
// directory named vendor, for one): a file the module needs at run time
// that is left out breaks every user of a release and no test of the
// checkout. These tests look at the zip as golang.org/x/mod/zip (the
// proxies' own code) makes it, and run the README's commands against a
// release of this checkout served by a module proxy in a directory.

// TestModuleZipKeepsEveryFile: the module zip holds every file of the
// checkout but those of the bench module (a module of its own), and the
// checkout makes a valid zip (names, sizes).
func TestModuleZipKeepsEveryFile(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cf, err := zip.CheckDir(root)
	if err != nil {
		t.Errorf("the checkout makes no valid module zip: %v", err)
	}
	for _, f := range cf.Omitted {
		rel, _ := filepath.Rel(root, f.Path)
		if rel == "bench" || rel == ".git" {
			continue
		}
		t.Errorf("the module zip leaves %s out (%v): a release would lack it; rename or move it", rel, f.Err)
	}
	if len(cf.Valid) == 0 {
		t.Error("no file in the module zip")
	}
}

// release makes a module proxy in a directory that serves this checkout
// as github.com/scenecs/scenecs v0.0.1, and returns the environment of a
// go command that uses it: the checkout's dependencies come from the
// module cache (offline, as in CI after go mod download), into a module
// cache of the test's own (the real one must not hold a made-up
// release); no checksum database (it is on the network).
func release(t *testing.T) []string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("file:// proxy paths are POSIX paths here")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	dir := filepath.Join(proxy, "github.com", "scenecs", "scenecs", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const version = "v0.0.1"
	f, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromDir(f, module.Version{Path: "github.com/scenecs/scenecs", Version: version}, root); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"list":            version + "\n",
		version + ".info": `{"Version":"` + version + `","Time":"2026-01-01T00:00:00Z"}`,
		version + ".mod":  string(mod),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(t.TempDir(), "modcache")
	env := []string{"GOPROXY=file://" + proxy + ",file://" + filepath.Join(strings.TrimSpace(string(out)), "cache", "download"),
		"GOMODCACHE=" + cache, "GOSUMDB=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GOWORK=off"}
	t.Cleanup(func() {
		// The module cache is read-only: the go command removes it.
		clean := exec.Command("go", "clean", "-modcache")
		clean.Env = append(os.Environ(), env...)
		if out, err := clean.CombinedOutput(); err != nil {
			t.Errorf("go clean -modcache: %v\n%s", err, out)
		}
	})
	return env
}

// goReleased runs a go command line with the release's environment.
func goReleased(t *testing.T, dir string, env []string, line string) string {
	t.Helper()
	cmd := exec.Command("go", strings.Fields(line)[1:]...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s (in %s): %v\n%s%s", line, dir, err, out, stderr)
	}
	return string(out)
}

// TestPublishedModule: against a release, the README's commands work:
// go install .../cmd/scene-run@latest gives a scene-run whose inspector
// page has every file it loads; go run ...@latest hints the same go run;
// go get ...@latest (then go mod tidy) builds the README's program in a
// module of one's own.
func TestPublishedModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds scenecs from a module proxy")
	}
	env := release(t)
	bin := t.TempDir()
	home := t.TempDir()
	for _, line := range readmeCommands(t, "go install github.com/scenecs/scenecs/cmd/scene-run@") {
		goReleased(t, home, append(env, "GOBIN="+bin), line)
	}
	pageLoads(t, filepath.Join(bin, "scene-run"))

	for _, line := range readmeCommands(t, "go install github.com/scenecs/scenecs/cmd/scene-run@") {
		run := strings.Replace(line, "go install", "go run", 1) + " run -ticks 1"
		out := goReleased(t, home, env, run)
		if want := "inspect it live: go run github.com/scenecs/scenecs/cmd/scene-run@v0.0.1 run -inspect 127.0.0.1:8080\n"; !strings.HasSuffix(out, want) {
			t.Errorf("%s: the hint is not\n%s\nin:\n%s", run, want, out)
		}
	}

	game := filepath.Join(home, "game")
	if err := os.Mkdir(game, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"main.go", "level.yaml"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(game, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goReleased(t, game, env, "go mod init example.com/game")
	for _, line := range readmeCommands(t, "go get github.com/scenecs/scenecs@") {
		goReleased(t, game, env, line)
	}
	goReleased(t, game, env, "go mod tidy -e") // -e: see module_test.go
	want := "scout hp: 20; max: 100 at 3 0 0\nguard hp: 40; max: 100 at 12 0 0\n"
	if got := goReleased(t, game, env, "go run ."); got != want {
		t.Errorf("the game printed:\n%s\nwant:\n%s", got, want)
	}
	if got := goReleased(t, game, env, "go list -m github.com/scenecs/scenecs"); got != "github.com/scenecs/scenecs v0.0.1\n" {
		t.Errorf("the game uses %s", got)
	}
}

// pageLoads runs scene-run with the inspector and loads its page as a
// browser would: the page, what its tags name, and every module the
// scripts import (through the page's import map), each of which must be
// served.
func pageLoads(t *testing.T, exe string) {
	t.Helper()
	base := startInspector(t, exe)
	get := func(p string) (string, bool) {
		t.Helper()
		req, _ := http.NewRequest("GET", base+p, nil)
		req.Header.Set("Accept", "text/html")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return string(body), resp.StatusCode == http.StatusOK
	}
	page, ok := get("/")
	if !ok {
		t.Fatal("no page")
	}
	imports := map[string]string{}
	if m := regexp.MustCompile(`<script type="importmap">(.*?)</script>`).FindStringSubmatch(page); m != nil {
		var im struct{ Imports map[string]string }
		if err := json.Unmarshal([]byte(m[1]), &im); err != nil {
			t.Fatal(err)
		}
		imports = im.Imports
	}
	var queue []string
	for _, m := range regexp.MustCompile(`(?:href|src)="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		queue = append(queue, path.Join("/", m[1]))
	}
	commentRe := regexp.MustCompile(`/\*(?s:.*?)\*/|(?m)^\s*//[^\n]*`)
	specRe := regexp.MustCompile(`(?:\bfrom|\bimport)\s*\(?\s*['"]([^'"]+)['"]`)
	seen := map[string]bool{}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		body, ok := get(p)
		if !ok {
			t.Errorf("GET %s: not served: a release lacks it", p)
			continue
		}
		if !strings.HasSuffix(p, ".js") {
			continue
		}
		// Imports in comments (usage examples) are not loaded.
		body = commentRe.ReplaceAllString(body, "")
		for _, m := range specRe.FindAllStringSubmatch(body, -1) {
			if u, ok := resolveImport(m[1], path.Dir(p), imports); ok {
				queue = append(queue, u)
			}
		}
	}
	if len(seen) < 5 {
		t.Errorf("the page loads only %d files: %v", len(seen), seen)
	}
}

// resolveImport resolves a module specifier imported by a script in dir:
// relative to dir, or through the import map (an exact name, or a prefix
// ending in "/"). Other specifiers (none is expected) are not followed.
func resolveImport(spec, dir string, imports map[string]string) (string, bool) {
	if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		return path.Join(dir, spec), true
	}
	if to, ok := imports[spec]; ok {
		return path.Join("/", to), true
	}
	for from, to := range imports {
		if strings.HasSuffix(from, "/") && strings.HasPrefix(spec, from) {
			return path.Join("/", to, spec[len(from):]), true
		}
	}
	return "", false
}

// startInspector runs exe with the inspector on a free port until the
// test ends, and returns the server's address.
func startInspector(t *testing.T, exe string) string {
	t.Helper()
	cmd := exec.Command(exe, "run", "-inspect", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() { // read to the end: the pipe never fills
			if m := regexp.MustCompile(`^inspect: (http://[^/]+)/`).FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case base := <-found:
		return base
	case <-time.After(30 * time.Second):
		t.Fatal("no inspect: line from scene-run")
		return ""
	}
}
