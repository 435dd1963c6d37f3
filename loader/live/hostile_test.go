package live

import (
	"context"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// hostileTimeout bounds each hostile case: every one is refused in
// milliseconds; a case that reads /dev/zero or waits on a named pipe
// would never end.
const hostileTimeout = 20 * time.Second

// hostileDir is a scene directory for hostile cases: root is the scene's
// root directory (main.yaml lives there), out a directory beside it, not
// under it.
type hostileDir struct {
	t         *testing.T
	root, out string
}

func (h hostileDir) write(rel, text string) {
	h.t.Helper()
	p := filepath.Join(h.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

func (h hostileDir) link(target, rel string) {
	h.t.Helper()
	p := filepath.Join(h.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		h.t.Skipf("symbolic links: %v", err)
	}
}

// secret is what files outside the root hold: no error may show it.
const secret = "SECRET_API_KEY"

// hostileFileCase is a scene whose files are not what they seem.
type hostileFileCase struct {
	name  string
	setup func(h hostileDir)
	main  string // file to load (default main.yaml)
	want  string // substring of the error ("" : loads)
}

// hostileKinds are files that are not regular files: named pipes,
// devices, directories, sockets.
var hostileKinds = []hostileFileCase{
	{"include of a named pipe", func(h hostileDir) {
		h.write("main.yaml", "include: [pipe.yaml]\n")
		mkfifo(h.t, filepath.Join(h.root, "pipe.yaml"))
	}, "", "main.yaml:1:11: cannot read pipe.yaml: not a regular file (a named pipe)"},
	{"main file is a named pipe", func(h hostileDir) {
		mkfifo(h.t, filepath.Join(h.root, "main.yaml"))
	}, "", "main.yaml: cannot read main.yaml: not a regular file (a named pipe)"},
	{"include of a link to a named pipe", func(h hostileDir) {
		h.write("main.yaml", "include: [a.yaml]\n")
		mkfifo(h.t, filepath.Join(h.root, "p"))
		h.link("p", "a.yaml")
	}, "", "main.yaml:1:11: cannot read a.yaml: not a regular file (a named pipe)"},
	{"main file is a link to /dev/zero", func(h hostileDir) {
		h.link("/dev/zero", "main.yaml")
	}, "", "main.yaml: cannot read main.yaml: not a regular file (a device)"},
	{"include of a directory", func(h hostileDir) {
		h.write("main.yaml", "include: [dir.yaml]\n")
		h.write("dir.yaml/x.yaml", "entities: []\n")
	}, "", "main.yaml:1:11: cannot read dir.yaml: not a regular file (a directory)"},
	{"include of a socket", func(h hostileDir) {
		h.write("main.yaml", "include: [s.yaml]\n")
		l, err := net.Listen("unix", filepath.Join(h.root, "s.yaml"))
		if err != nil {
			h.t.Skipf("unix sockets: %v", err)
		}
		h.t.Cleanup(func() { l.Close() })
	}, "", "main.yaml:1:11: cannot read s.yaml: not a regular file (a socket)"},
}

// hostileLinks are symbolic links out of the root, in loops or to
// nothing.
var hostileLinks = []hostileFileCase{
	{"include of a link to /dev/zero", func(h hostileDir) {
		h.write("main.yaml", "entities: []\ninclude:\n  - zero.yaml\n")
		h.link("/dev/zero", "zero.yaml")
	}, "", "main.yaml:3:5: cannot read zero.yaml: a symbolic link leads outside the scene root"},
	{"include through a link to a directory outside", func(h hostileDir) {
		h.write("main.yaml", "include: [lib/x.yaml]\n")
		os.WriteFile(filepath.Join(h.out, "x.yaml"), []byte("entities:\n  - "+secret+": 1\n"), 0o644)
		h.link(h.out, "lib")
	}, "", "main.yaml:1:11: cannot read lib/x.yaml: a symbolic link leads outside the scene root"},
	{"include through a relative link out of the root", func(h hostileDir) {
		h.write("sub/main.yaml", "include: [up/outside/x.yaml]\n")
		os.WriteFile(filepath.Join(h.out, "x.yaml"), []byte(secret+": 1\n"), 0o644)
		h.link("../..", "sub/up")
	}, "sub/main.yaml", "main.yaml:1:11: cannot read up/outside/x.yaml: a symbolic link leads outside the scene root"},
	{"include of a link to a .env file outside", func(h hostileDir) {
		h.write("main.yaml", "include: [env.yaml]\n")
		os.WriteFile(filepath.Join(h.out, ".env"), []byte(secret+"=hunter2\nOTHER_KEY=x\n"), 0o600)
		h.link(filepath.Join(h.out, ".env"), "env.yaml")
	}, "", "main.yaml:1:11: cannot read env.yaml: a symbolic link leads outside the scene root"},
	{"link loop", func(h hostileDir) {
		h.write("main.yaml", "include: [a.yaml]\n")
		h.link("b.yaml", "a.yaml")
		h.link("a.yaml", "b.yaml")
	}, "", "main.yaml:1:11: cannot read a.yaml: too many levels of symbolic links"},
	{"dangling link", func(h hostileDir) {
		h.write("main.yaml", "include: [a.yaml]\n")
		h.link("nowhere.yaml", "a.yaml")
	}, "", "main.yaml:1:11: cannot read a.yaml: no such file or directory"},
}

// hostileSizes are files too large to read.
var hostileSizes = []hostileFileCase{
	{"huge sparse include", func(h hostileDir) {
		h.write("main.yaml", "include: [big.yaml]\n")
		f, err := os.Create(filepath.Join(h.root, "big.yaml"))
		if err != nil {
			h.t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(1 << 40); err != nil { // 1 TiB of holes
			h.t.Skipf("sparse file: %v", err)
		}
	}, "", "main.yaml:1:11: "},
}

// hostileLoads are links that stay inside the root (or the main file's
// own link): these load.
var hostileLoads = []hostileFileCase{
	{"main file is a link out of the root", func(h hostileDir) {
		os.WriteFile(filepath.Join(h.out, "real.yaml"), []byte("include: [part.yaml]\nentities: [{id: a}]\n"), 0o644)
		h.write("part.yaml", "entities: [{id: b}]\n")
		h.link(filepath.Join(h.out, "real.yaml"), "main.yaml")
	}, "", ""},
	{"include of a link inside the root", func(h hostileDir) {
		h.write("main.yaml", "include: [alias.yaml, abs.yaml, lnk/c.yaml]\n")
		h.write("parts/real.yaml", "entities: [{id: a}]\n")
		h.write("parts/other.yaml", "entities: [{id: b}]\n")
		h.write("parts/c.yaml", "entities: [{id: c}]\n")
		h.link("parts/real.yaml", "alias.yaml")
		h.link(filepath.Join(h.root, "parts", "other.yaml"), "abs.yaml")
		h.link("parts", "lnk")
	}, "", ""},
}

// TestHostileFiles loads scenes whose files are not what they seem: named
// pipes, devices, sockets, directories, links out of the root, link loops,
// huge files. Each is refused quickly, with the position of the include
// that names it, and without echoing the refused file's content.
func TestHostileFiles(t *testing.T) {
	for _, cases := range [][]hostileFileCase{hostileKinds, hostileLinks, hostileSizes, hostileLoads} {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) { runHostileFile(t, tc) })
		}
	}
}

// runHostileFile sets up the files of tc in a fresh directory, loads them
// and checks the outcome.
func runHostileFile(t *testing.T, tc hostileFileCase) {
	base := t.TempDir()
	h := hostileDir{t: t, root: filepath.Join(base, "scene"), out: filepath.Join(base, "outside")}
	for _, d := range []string{h.root, h.out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tc.setup(h)
	main := tc.main
	if main == "" {
		main = "main.yaml"
	}
	reg := newTestRegistry(t)
	err := withTimeout(t, func() error {
		_, err := LoadFile(reg, filepath.Join(h.root, main), Options{})
		return err
	})
	checkHostile(t, err, tc.want)
	if tc.want == "" {
		// The cases that load hold entities a, b and c, those that
		// exist.
		n := 0
		for _, id := range []string{"a", "b", "c"} {
			if _, ok := reg.EntityByID(id); ok {
				n++
			}
		}
		if n < 2 {
			t.Fatalf("loaded %d of the entities", n)
		}
	}
	if tc.name == "huge sparse include" && !strings.Contains(err.Error(), "too large") {
		t.Fatalf("error %v", err)
	}
}

// checkHostile checks err against want ("" : no error), and that it shows
// nothing of the files outside the root.
func checkHostile(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("error: %v", err)
	case want == "":
		return
	case err == nil:
		t.Fatalf("no error, want %q", want)
	case !strings.Contains(err.Error(), want):
		t.Fatalf("error\n%v\nwant it to contain\n%s", err, want)
	case strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "OTHER_KEY"):
		t.Fatalf("error shows a refused file's content: %v", err)
	}
}

// withTimeout runs fn, failing the test if it takes longer than
// hostileTimeout.
func withTimeout(t *testing.T, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(hostileTimeout):
		t.Fatalf("still loading after %v", hostileTimeout)
		return nil
	}
}

// TestHostileFS loads through an fs.FS (Load, ReadFile): what is not a
// regular file by its Stat is refused before it is opened.
func TestHostileFS(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.yaml"), []byte("include: [pipe.yaml, zero.yaml]\n"), 0o644)
	mkfifo(t, filepath.Join(dir, "pipe.yaml"))
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Skipf("symbolic links: %v", err)
	}
	err := withTimeout(t, func() error {
		_, err := Load(newTestRegistry(t), os.DirFS(dir), "main.yaml", Options{})
		return err
	})
	checkHostile(t, err, "main.yaml:1:11: cannot read pipe.yaml: not a regular file (a named pipe)")
	checkHostile(t, err, "main.yaml:1:22: cannot read zero.yaml: not a regular file (a device)")

	mem := fstest.MapFS{
		"main.yaml": {Data: []byte("include: [p.yaml, d.yaml, s.yaml]\n")},
		"p.yaml":    {Mode: fs.ModeNamedPipe},
		"d.yaml":    {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"s.yaml":    {Mode: fs.ModeSocket},
	}
	_, err = scenefile.ReadFile(mem, "main.yaml", scenefile.Limits{})
	for _, want := range []string{
		"main.yaml:1:11: cannot read p.yaml: not a regular file (a named pipe)",
		"main.yaml:1:19: cannot read d.yaml: not a regular file (a device)",
		"main.yaml:1:27: cannot read s.yaml: not a regular file (a socket)",
	} {
		checkHostile(t, err, want)
	}
	if !errors.Is(err.(scenefile.ErrorList)[0], scenefile.ErrNotRegular) && !strings.Contains(err.Error(), scenefile.ErrNotRegular.Error()) {
		t.Fatalf("error %v", err)
	}
}

// TestHostileInterrupt: a load whose context is done stops, leaves no
// entity, and says why.
func TestHostileInterrupt(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("entities:\n")
	for range 3000 {
		b.WriteString("  - position: 1 2 3\n    children:\n      - {}\n")
	}
	main := filepath.Join(dir, "main.yaml")
	os.WriteFile(main, []byte(b.String()), 0o644)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	reg := newTestRegistry(t)
	before := reg.World().Len()
	for _, load := range []func() error{
		func() error { _, err := LoadFile(reg, main, Options{Context: ctx}); return err },
		func() error { _, err := CheckFile(reg, main, Options{Context: ctx}); return err },
		func() error {
			_, err := Load(reg, os.DirFS(dir), "main.yaml", Options{Context: ctx})
			return err
		},
		func() error {
			_, err := LoadBytes(reg, "main.yaml", []byte(b.String()), Options{Context: ctx})
			return err
		},
	} {
		err := withTimeout(t, load)
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
			t.Fatalf("error %v, want an interruption", err)
		}
	}
	if n := reg.World().Len(); n != before {
		t.Fatalf("an interrupted load left %d entities", n-before)
	}
}

// TestHostileInterruptMidBuild: a context done while entities are being
// made stops the build within a few hundred entities and takes back what
// it made.
func TestHostileInterruptMidBuild(t *testing.T) {
	reg := newTestRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	made := 0
	_, err := registry.Register[struct{}](reg, "counted", registry.Definition[struct{}]{
		Init: func(c *registry.Context, _ *struct{}) {
			if made++; made == 1000 {
				cancel() // Ctrl-C, in the middle of the build
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("entities:\n")
	for range 100_000 {
		b.WriteString("  - counted:\n")
	}
	before := reg.World().Len()
	_, err = LoadBytes(reg, "big.yaml", []byte(b.String()), Options{Context: ctx})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want an interruption", err)
	}
	if made > 1000+buildCheckEvery {
		t.Fatalf("%d entities made after the interrupt", made-1000)
	}
	if n := reg.World().Len(); n != before {
		t.Fatalf("an interrupted build left %d entities", n-before)
	}
}

// TestHostileSnapshot: bytes handed to a reload (a Watcher's Snapshot)
// are refused for an include that a link leads out of the root, like
// bytes read from disk; and a reload whose context is done applies
// nothing.
func TestHostileSnapshot(t *testing.T) {
	base := t.TempDir()
	h := hostileDir{t: t, root: filepath.Join(base, "scene"), out: filepath.Join(base, "outside")}
	os.Mkdir(h.root, 0o755)
	os.Mkdir(h.out, 0o755)
	h.write("main.yaml", "include: [lib/x.yaml]\nentities: [{id: a}]\n")
	h.write("lib/x.yaml", "entities: [{id: b}]\n")
	reg := newTestRegistry(t)
	file := filepath.Join(h.root, "main.yaml")
	scene, err := LoadFile(reg, file, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rl := &Reloader{Scene: scene, File: file}
	// lib becomes a link out of the root; the watcher read x.yaml there.
	os.WriteFile(filepath.Join(h.out, "x.yaml"), []byte(secret+": 1\n"), 0o644)
	if err := os.RemoveAll(filepath.Join(h.root, "lib")); err != nil {
		t.Fatal(err)
	}
	h.link(h.out, "lib")
	snap := scenefile.Snapshot{filepath.Join(h.root, "lib", "x.yaml"): []byte("entities: [{id: " + secret + "}]\n")}
	_, err = rl.ReloadFrom(snap)
	checkHostile(t, err, "main.yaml:1:11: cannot read lib/x.yaml: a symbolic link leads outside the scene root")
	if _, ok := reg.EntityByID("b"); !ok {
		t.Fatal("a refused reload changed the World")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	os.Remove(filepath.Join(h.root, "lib"))
	h.write("lib/x.yaml", "entities: [{id: c}]\n")
	rl.Options.Context = ctx
	if _, err := rl.Reload(); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want an interruption", err)
	}
	if _, ok := reg.EntityByID("c"); ok {
		t.Fatal("an interrupted reload applied")
	}
}
