package inspect

import (
	"net/http"
	"strings"
	"testing"
)

// listedEndpoints reads the endpoints GET / lists (indexText): method
// and path, with REF, NAME and SYSTEM filled in and the optional parts
// left out.
func listedEndpoints(t *testing.T) [][2]string {
	t.Helper()
	fill := strings.NewReplacer("REF", "ship/0", "components/NAME", "components/position", "events/NAME", "events/hit", "SYSTEM", "spin")
	var out [][2]string
	for _, line := range strings.Split(indexText, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != strings.ToUpper(f[0]) || !strings.HasPrefix(f[1], "/") {
			continue
		}
		for _, p := range f[1:] {
			if !strings.HasPrefix(p, "/") {
				break
			}
			p, _, _ = strings.Cut(strings.TrimSuffix(p, ","), "[")
			p, _, _ = strings.Cut(p, "?")
			out = append(out, [2]string{f[0], fill.Replace(p)})
		}
	}
	t.Logf("GET / lists %d endpoints", len(out))
	if len(out) < 25 {
		t.Fatalf("GET / lists %d endpoints: %v", len(out), out)
	}
	return out
}

// TestEveryRouteChecked: every endpoint GET / lists is routed (not 404
// or 405), refused with 403 under another Host or Origin, and, but for
// a GET, refused with 401 without the token: the checks are ServeHTTP's,
// before any route, so that a route added later cannot skip them.
func TestEveryRouteChecked(t *testing.T) {
	e := newEnv(t, Options{}).start()
	for _, ep := range listedEndpoints(t) {
		method, path := ep[0], ep[1]
		if r := e.call(method, path, "", "Host: evil.example"); r.status != http.StatusForbidden {
			t.Errorf("%s %s under another Host: %d", method, path, r.status)
		}
		if r := e.call(method, path, "", "Origin: http://evil.example"); r.status != http.StatusForbidden {
			t.Errorf("%s %s from another Origin: %d", method, path, r.status)
		}
		if method == http.MethodGet {
			if path == "/api/events" || strings.HasSuffix(path, "/stream") {
				continue // streams: they answer until the client goes
			}
			if r := e.get(path); r.status == http.StatusNotFound && !strings.HasPrefix(path, "/api/entities/") || r.status == http.StatusMethodNotAllowed {
				t.Errorf("GET %s: %d %s", path, r.status, r.body)
			}
			continue
		}
		if r := e.call(method, path, "", "noToken: 1"); r.status != http.StatusUnauthorized {
			t.Errorf("%s %s without the token: %d %s", method, path, r.status, r.body)
		}
	}
}

// TestEntityRoutes: a reference may span segments unescaped (ship/0) or
// be escaped whole (ship%2F0, %23ship%2F0), on every route under
// /api/entities/, and a method a route does not take is a 405 saying
// which it takes, before the token is asked for.
func TestEntityRoutes(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var info entityInfo
	for _, path := range []string{"/api/entities/ship/0", "/api/entities/ship%2F0", "/api/entities/%23ship%2F0", "/api/entities/%23ship/0"} {
		e.get(path).expect(t, http.StatusOK).json(t, &info)
		if info.Ref != "ship/0" {
			t.Errorf("GET %s: %q", path, info.Ref)
		}
	}
	var ev changeEvent
	e.call("PUT", "/api/entities/ship/0/components/scale", "2 2 2").expect(t, http.StatusOK).json(t, &ev)
	if ev.Ref != "ship/0" || ev.Component != "scale" {
		t.Errorf("PUT ship/0/components/scale: %+v", ev)
	}
	e.call("DELETE", "/api/entities/ship%2F0/components/scale", "").expect(t, http.StatusOK).json(t, &ev)
	if ev.Op != "remove" || ev.Ref != "ship/0" {
		t.Errorf("DELETE ship%%2F0/components/scale: %+v", ev)
	}
	var sent sentEvent
	e.call("POST", "/api/entities/ship/0/events/hit", "").expect(t, http.StatusOK).json(t, &sent)
	if sent.Ref != "ship/0" || sent.Event != "hit" {
		t.Errorf("POST ship/0/events/hit: %+v", sent)
	}
	r := e.call("POST", "/api/entities/ship/0/clone", "").expect(t, http.StatusCreated)
	if r.json(t, &info); info.Ref != "ship/1" || r.header.Get("Location") != "/api/entities/ship%2F1" {
		t.Errorf("POST ship/0/clone: %q, Location %q", info.Ref, r.header.Get("Location"))
	}
	e.call("PUT", "/api/entities/ship/1/parent", "field").expect(t, http.StatusOK).json(t, &info)
	if info.Ref != "field/2" {
		t.Errorf("PUT ship/1/parent: %q", info.Ref)
	}
	if msg := e.call("POST", "/api/entities/field/2/prefab/revert", `{"component":"position"}`).expect(t, http.StatusConflict).errMsg(t); !strings.Contains(msg, "field/2 is not the root of an instance") {
		t.Errorf("POST field/2/prefab/revert: %s", msg)
	}
	e.call("DELETE", "/api/entities/field%2F2", "").expect(t, http.StatusOK)
	for _, tc := range []struct{ method, path, allow string }{
		{"GET", "/api/entities/ship/0/clone", "POST"},
		{"POST", "/api/entities/ship/0/parent", "PUT"},
		{"GET", "/api/entities/ship/0/events/hit", "POST"},
		{"PUT", "/api/entities/ship/0/prefab/apply", "POST"},
		{"POST", "/api/entities/ship/0", "DELETE, GET"},
		{"HEAD", "/api/scene", "GET"},
		{"DELETE", "/api/undo", "POST"},
	} {
		r := e.call(tc.method, tc.path, "", "noToken: 1").expect(t, http.StatusMethodNotAllowed)
		if r.header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, r.header.Get("Allow"), tc.allow)
		}
	}
	for _, path := range []string{"/api/entities/", "/api/entities/ship/0/events/a%2Fb"} {
		e.call("POST", path, "", "noToken: 1").expect(t, http.StatusBadRequest)
	}
	e.call("POST", "/api/schedule/nothing", "", "noToken: 1").expect(t, http.StatusNotFound)
}
