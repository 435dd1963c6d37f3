package inspect

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/registry"
)

// TestPage: GET / gives a browser the page and anything else the list of
// endpoints; the page's files are served with their types, revalidated
// by ETag; other paths are 404.
func TestPage(t *testing.T) {
	e := newEnv(t, Options{}).start()
	r := e.call("GET", "/", "", "noToken: 1", "Accept: text/html,application/xhtml+xml,*/*;q=0.8").expect(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "text/html; charset=utf-8" || !strings.Contains(string(r.body), `<script type="importmap">`) {
		t.Fatalf("page: %s\n%.200s", ct, r.body)
	}
	if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'sha256-") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("page policy %q", csp)
	}
	r = e.get("/").expect(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") || !strings.Contains(string(r.body), "/api/transforms/stream") {
		t.Fatalf("endpoint list: %s\n%s", ct, r.body)
	}
	for path, ct := range map[string]string{
		"/main.js":                            "text/javascript; charset=utf-8",
		"/style.css":                          "text/css; charset=utf-8",
		"/third_party/three/three.module.js":  "text/javascript; charset=utf-8",
		"/third_party/three/three.core.js":    "text/javascript; charset=utf-8",
		"/third_party/three/OrbitControls.js": "text/javascript; charset=utf-8",
		"/third_party/README.md":              "text/plain; charset=utf-8",
	} {
		r := e.get(path).expect(t, http.StatusOK)
		want, _ := fs.ReadFile(webFS, path[1:])
		if got := r.header.Get("Content-Type"); got != ct || string(r.body) != string(want) {
			t.Errorf("%s: %s, %d bytes (want %s, %d bytes)", path, got, len(r.body), ct, len(want))
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
		etag := r.header.Get("ETag")
		if r := e.call("GET", path, "", "noToken: 1", "If-None-Match: "+etag); r.status != http.StatusNotModified || len(r.body) != 0 {
			t.Errorf("%s with If-None-Match: %d, %d bytes", path, r.status, len(r.body))
		}
	}
	for _, path := range []string{"/nope.js", "/index.html", "/third_party/update.sh", "/third_party/three/LICENSE", "/../inspect.go", "/api/nope"} {
		if r := e.get(path); r.status != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, r.status)
		}
	}
	if r := e.call("POST", "/main.js", ""); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST /main.js: %d", r.status)
	}
	// The Host check holds for the page too.
	if r := e.call("GET", "/main.js", "", "noToken: 1", "Host: evil.example"); r.status != http.StatusForbidden {
		t.Errorf("page from another host: %d", r.status)
	}
}

// TestPageFiles: every module the page imports, and every file of the
// import map, is embedded; the page's own files reach no other server.
func TestPageFiles(t *testing.T) {
	importRe := regexp.MustCompile(`(?m)^import .* from '([^']+)';|import\('([^']+)'\)`)
	page, _ := fs.ReadFile(webFS, "index.html")
	// The import map: a name, or a prefix ending in / (three/addons/).
	var importMap struct{ Imports map[string]string }
	if m := regexp.MustCompile(`(?s)<script type="importmap">(.*?)</script>`).FindSubmatch(page); m == nil || json.Unmarshal(m[1], &importMap) != nil {
		t.Fatal("index.html has no import map")
	}
	resolve := func(spec string) (string, bool) {
		for name, to := range importMap.Imports {
			if spec == name || (strings.HasSuffix(name, "/") && strings.HasPrefix(spec, name)) {
				return strings.TrimPrefix(to+strings.TrimPrefix(spec, name), "./"), true
			}
		}
		return "", false
	}
	for _, m := range regexp.MustCompile(`"(\./third_party/[^"]+)"`).FindAllStringSubmatch(string(page), -1) {
		p := strings.TrimPrefix(m[1], "./")
		if strings.HasSuffix(p, "/") {
			continue
		}
		if webFileAt("/"+p) == nil {
			t.Errorf("index.html maps to %s, which is not embedded", p)
		}
	}
	names, _ := fs.Glob(webFS, "*.js")
	if len(names) < 10 {
		t.Fatalf("only %d modules: %q", len(names), names)
	}
	for _, name := range append(names, "index.html", "style.css") {
		b, _ := fs.ReadFile(webFS, name)
		if strings.Contains(string(b), "://") {
			t.Errorf("%s names another server", name)
		}
		for _, m := range importRe.FindAllStringSubmatch(string(b), -1) {
			spec := m[1] + m[2]
			p, ok := resolve(spec)
			if !ok {
				p = strings.TrimPrefix(spec, "./")
			}
			if webFileAt("/"+p) == nil {
				t.Errorf("%s imports %s, which is not embedded", name, spec)
			}
		}
	}
}

// TestTree: GET /api/tree lists the entities in document order with
// their references, ids, classes, depths and numbers of children.
func TestTree(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var tr treeResult
	e.get("/api/tree").expect(t, http.StatusOK).json(t, &tr)
	want := []treeNode{
		{Ref: "ship", ID: "ship", Class: []string{"player"}, Children: 2},
		{Ref: "ship/0", Class: []string{"gun", "left"}, Depth: 1},
		{Ref: "ship/1", Class: []string{"gun", "right"}, Depth: 1},
		{Ref: "field", ID: "field", Children: 2},
		{Ref: "rock-1", ID: "rock-1", Depth: 1},
		{Ref: "wreck", ID: "wreck", Depth: 1},
	}
	if tr.Count != len(want) || len(tr.Entities) != len(want) {
		t.Fatalf("tree %+v", tr)
	}
	for i := range want {
		if g, w := tr.Entities[i], want[i]; g.Ref != w.Ref || g.ID != w.ID || !slices.Equal(g.Class, w.Class) || g.Depth != w.Depth || g.Children != w.Children {
			t.Errorf("entity %d: %+v, want %+v", i, g, w)
		}
	}
	// Each handle names its entity, as /api/entities gives it.
	for _, n := range tr.Entities {
		var info entityInfo
		e.get("/api/entities/"+n.Ref).expect(t, http.StatusOK).json(t, &info)
		if n.Handle == "" || n.Handle != info.Handle {
			t.Errorf("%s: tree handle %q, entity handle %q", n.Ref, n.Handle, info.Handle)
		}
	}
	var q queryResult
	e.get("/api/query?selector=*").expect(t, http.StatusOK).json(t, &q)
	if tr.Version != q.Version {
		t.Errorf("tree version %d, query version %d", tr.Version, q.Version)
	}
	// A new entity deep down shows with its depth and a new version.
	e.call("POST", "/api/entities", `{"parent": "ship/1", "id": "tip"}`).expect(t, http.StatusCreated)
	e.get("/api/tree").expect(t, http.StatusOK).json(t, &tr)
	if i := slices.IndexFunc(tr.Entities, func(n treeNode) bool { return n.Ref == "tip" }); i != 3 || tr.Entities[i].Depth != 2 || tr.Entities[2].Children != 1 || tr.Version == q.Version {
		t.Errorf("after a create: %+v", tr)
	}
}

const colorScene = `components:
  material:
    color: {type: color, default: "#888888"}
    shader: {type: string, default: flat}
entities:
  - id: a
    position: 0 0 0
    color: "#ff0000"
  - id: b
    position: 1 0 0
    material: "color: #00ff0080"
  - id: c
    position: 2 0 0
    color: "#0000ff"
    material: "color: #00ff00"
  - id: d
    position: 3 0 0
  - id: e
    color: "#123456"
`

// TestColors: GET /api/colors packs each entity's colour (its color
// component, else a color property) in the order of /api/transforms.
func TestColors(t *testing.T) {
	e := newEnvWith(t, Options{}, func(reg *registry.Registry) (*live.Scene, error) {
		src := colorScene
		if _, ok := reg.Component("color"); !ok { // a program may register its own
			src = strings.Replace(src, "components:\n", "components:\n  color: {type: color, default: \"#ffffff\"}\n", 1)
		}
		return loader.LoadBytes(reg, "colors.yaml", []byte(src), loader.Options{})
	}).start()
	r := e.get("/api/colors").expect(t, http.StatusOK)
	if ct := r.header.Get("Content-Type"); ct != "application/octet-stream" {
		t.Errorf("Content-Type %s", ct)
	}
	if s := r.header.Get("X-Sources"); !strings.HasPrefix(s, "color,") || !strings.Contains(s, "material.color") {
		t.Errorf("X-Sources %q", s)
	}
	want := [][4]byte{{255, 0, 0, 255}, {0, 255, 0, 128}, {0, 0, 255, 255}, {0, 0, 0, 0}}
	check := func(r resp, want [][4]byte) {
		t.Helper()
		b := r.body
		if len(b) != 16+4*len(want) || binary.LittleEndian.Uint32(b) != uint32(len(want)) || binary.LittleEndian.Uint32(b[4:]) != 4 {
			t.Fatalf("colours % x", b)
		}
		if v := binary.LittleEndian.Uint64(b[8:]); r.header.Get("X-Scene-Version") != strconv.FormatUint(v, 10) {
			t.Errorf("version %d in the body, %s in the header", v, r.header.Get("X-Scene-Version"))
		}
		for i, w := range want {
			if got := [4]byte(b[16+4*i:]); got != w {
				t.Errorf("entity %d: %v, want %v", i, got, w)
			}
		}
	}
	check(r, want)
	// The same entities as /api/transforms, in its order.
	tr := e.get("/api/transforms").expect(t, http.StatusOK)
	if binary.LittleEndian.Uint32(tr.body) != uint32(len(want)) {
		t.Errorf("transforms count %d", binary.LittleEndian.Uint32(tr.body))
	}
	check(e.get("/api/colors?selector=*").expect(t, http.StatusOK), append(want, [4]byte{0x12, 0x34, 0x56, 255}))
	if r := e.get("/api/colors?selector=[position"); r.status != http.StatusBadRequest || !strings.Contains(string(r.body), `"col":`) {
		t.Errorf("bad selector: %d %s", r.status, r.body)
	}
	// An edit shows at once.
	e.call("PUT", "/api/entities/d/components/color", "#010203").expect(t, http.StatusOK)
	want[3] = [4]byte{1, 2, 3, 255}
	check(e.get("/api/colors").expect(t, http.StatusOK), want)
}

// TestTransformStream: GET /api/transforms/stream sends /api/transforms
// answers as length-prefixed frames until the client goes or the
// Inspector closes; bad parameters are refused before it starts.
func TestTransformStream(t *testing.T) {
	e := newEnv(t, Options{}).start()
	e.call("POST", "/api/pause", "").expect(t, http.StatusOK) // frames then equal
	one := e.get("/api/transforms?components=position,scale").expect(t, http.StatusOK)

	res, err := e.srv.Client().Get(e.srv.URL + "/api/transforms/stream?components=position,scale&fps=60")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/octet-stream" || res.Header.Get("X-Layout") != one.header.Get("X-Layout") {
		t.Fatalf("stream: %s %v", res.Status, res.Header)
	}
	br := bufio.NewReader(res.Body)
	for i := range 3 {
		var size [4]byte
		if _, err := io.ReadFull(br, size[:]); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		frame := make([]byte, binary.LittleEndian.Uint32(size[:]))
		if _, err := io.ReadFull(br, frame); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if string(frame) != string(one.body) {
			t.Fatalf("frame %d differs from GET /api/transforms:\n% x\n% x", i, frame, one.body)
		}
	}
	e.in.Close()
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Errorf("after Close: %v", err)
	}

	e = newEnv(t, Options{}).start()
	for _, q := range []string{"fps=0", "fps=61", "fps=x", "components=nope", "components=enemy", "components=health.nope", "selector=[position"} {
		if r := e.get("/api/transforms/stream?" + q); r.status != http.StatusBadRequest || r.errMsg(t) == "" {
			t.Errorf("%s: %d %s", q, r.status, r.body)
		}
	}
	if r := e.call("POST", "/api/transforms/stream", ""); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", r.status)
	}
}
