package inspect

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/export"
	"github.com/scenecs/scenecs/loader/live"
	"github.com/scenecs/scenecs/loader/scenefile"
	"github.com/scenecs/scenecs/registry"
)

// limitsScene has a prefab instance, so that trees grow under parts too.
const limitsScene = `prefabs:
  tower:
    children:
      - class: floor
        children:
          - class: roof
entities:
  - id: t1
    prefab: tower
  - id: plain
`

// TestCreateWithinLimits: POST /api/entities builds only trees a scene
// file can hold: a chain of entities (from a root, under an instance's
// parts, or beside other branches) stops at the loader's MaxDepth, the
// World at MaxEntities, each refused with 409 saying which limit, and
// nothing made; every tree the API accepted dumps (JSON, YAML, XML) to a
// file that loads back with those limits, to the same entities.
func TestCreateWithinLimits(t *testing.T) {
	lim := scenefile.Limits{MaxDepth: 7, MaxEntities: 40}
	e := newEnvWith(t, Options{Limits: lim}, func(reg *registry.Registry) (*live.Scene, error) {
		return loader.LoadBytes(reg, "scene.yaml", []byte(limitsScene), loader.Options{Limits: lim})
	}).start()
	grow := func(from string) (depth int) {
		t.Helper()
		parent := from
		for i := 0; ; i++ {
			if i > 1000 {
				t.Fatalf("a chain of %d entities and no refusal", i)
			}
			body := fmt.Sprintf(`{"parent": %q, "components": {"position": "0 0 0"}}`, parent)
			if parent == "" {
				body = `{"components": {"position": "0 0 0"}}`
			}
			r := e.call("POST", "/api/entities", body)
			if r.status == http.StatusConflict {
				if msg := r.errMsg(t); !strings.Contains(msg, "MaxDepth") && !strings.Contains(msg, "MaxEntities") {
					t.Fatalf("refused without naming the limit: %s", msg)
				}
				return i
			}
			r.expect(t, http.StatusCreated)
			var g entityInfo
			r.json(t, &g)
			parent = g.Handle
		}
	}
	if n := grow(""); n != lim.MaxDepth {
		t.Errorf("a chain from a root: %d entities made, want %d", n, lim.MaxDepth)
	}
	checkDumpsLoad(t, e, lim)
	// Under the instance's roof (depth 3): four more.
	if n := grow("t1/0/0"); n != lim.MaxDepth-3 {
		t.Errorf("a chain under a part at depth 3: %d made, want %d", n, lim.MaxDepth-3)
	}
	checkDumpsLoad(t, e, lim)
	// Beside: from plain's children, until the World is full.
	total := 0
	for range 10 {
		total += grow("plain")
	}
	var n int
	e.sim(func() { n = e.reg.World().Len() + e.reg.Prefabs().Size("tower") })
	if n != lim.MaxEntities {
		t.Errorf("%d entities and prefab nodes after growing until refused, want %d (%d made)", n, lim.MaxEntities, total)
	}
	checkDumpsLoad(t, e, lim)
	// With the default limits, the default depth.
	d := newEnv(t, Options{}).start()
	parent, made := "field", 1
	for ; made < 1000; made++ {
		r := d.call("POST", "/api/entities", fmt.Sprintf(`{"parent": %q}`, parent))
		if r.status != http.StatusCreated {
			r.expect(t, http.StatusConflict)
			break
		}
		var g entityInfo
		r.json(t, &g)
		parent = g.Handle
	}
	if made != scenefile.DefaultLimits().MaxDepth {
		t.Errorf("default limits: chain of %d, want %d", made, scenefile.DefaultLimits().MaxDepth)
	}
	checkDumpsLoad(t, d, scenefile.Limits{})
}

// checkDumpsLoad dumps the World in every format and loads each back
// with lim into a fresh Registry: it must load, with as many entities.
func checkDumpsLoad(t *testing.T, e *env, lim scenefile.Limits) {
	t.Helper()
	files := map[string][]byte{}
	var n int
	e.sim(func() {
		n = e.reg.World().Len()
		var b bytes.Buffer
		if err := export.WriteJSON(&b, e.reg, export.Options{}); err != nil {
			t.Error(err)
		}
		files["dump.json"] = b.Bytes()
		doc := export.Export(e.reg, export.Options{})
		var y, x bytes.Buffer
		if err := scenefile.WriteYAML(&y, doc); err != nil {
			t.Error(err)
		}
		if err := scenefile.WriteXML(&x, doc); err != nil {
			t.Error(err)
		}
		files["dump.yaml"], files["dump.xml"] = y.Bytes(), x.Bytes()
	})
	for name, b := range files {
		reg := newRegistry(t, nil)
		if _, err := loader.LoadBytes(reg, name, b, loader.Options{Limits: lim}); err != nil {
			t.Fatalf("%s of the tree the API built does not load back: %v", name, firstLine(err))
		}
		if got := reg.World().Len(); got != n {
			t.Errorf("%s loads %d entities, want %d", name, got, n)
		}
	}
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
