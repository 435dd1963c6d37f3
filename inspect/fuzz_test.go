package inspect

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/loader"
)

// FuzzServeHTTP sends arbitrary requests: none may panic or hang, every
// answer has a known status, and every JSON answer is valid JSON (an
// error answer with an "error"). Each input runs on a fresh scene, the
// test's goroutine draining and ticking while the request waits.
func FuzzServeHTTP(f *testing.F) {
	for _, s := range [][3]string{
		{"GET", "/api/query?selector=[enemy]:not([alive])", ""},
		{"GET", "/api/entities/ship/0", ""},
		{"PUT", "/api/entities/ship/components/health", "hp: 5"},
		{"PUT", "/api/entities/%23wreck/components/position", "1 2 3"},
		{"DELETE", "/api/entities/wreck/components/scale", ""},
		{"POST", "/api/entities", `{"parent": "field", "id": "g", "mixin": "rock", "components": {"health": "hp: 3"}}`},
		{"DELETE", "/api/entities/field", ""},
		{"POST", "/api/step?n=2", ""},
		{"GET", "/api/transforms?components=position,health.hp", ""},
		{"GET", "/api/scene?root=1/0", ""},
		{"GET", "/api/table?selector=[health.hp<60],[velocity.y<0]&offset=1&limit=2", ""},
		{"GET", "/api/table?selector=*&components=spin.axis.z,position.w,health..hp,", ""},
		{"PATCH", "/api/entities/e1v0/components/x", "\x00"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	known := map[int]bool{200: true, 201: true, 400: true, 401: true, 403: true, 404: true, 405: true, 409: true, 413: true, 500: true, 501: true, 503: true}
	f.Fuzz(func(t *testing.T, method, target, body string) {
		if strings.HasPrefix(target, "/api/events") || strings.HasPrefix(target, "/api/transforms/stream") || !strings.HasPrefix(target, "/") {
			return
		}
		req, err := http.NewRequest(method, "http://example.com"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		// A fresh scene each time: changes do not pile up between inputs.
		reg := newRegistry(t, nil)
		if _, err := loader.LoadBytes(reg, "scene.yaml", []byte(testScene), loader.Options{}); err != nil {
			t.Fatal(err)
		}
		in := New(reg, Options{Hosts: []string{"example.com"}, MaxBody: 4096, Token: "t"})
		req.Header.Set("Authorization", "Bearer "+in.Token())
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			in.ServeHTTP(rec, req)
			close(done)
		}()
		for {
			select {
			case <-done:
			default:
				in.Drain()
				if in.ShouldTick() {
					_ = reg.Tick(1.0 / 60)
				}
				continue
			}
			break
		}
		if !known[rec.Code] {
			t.Fatalf("%s %s: status %d", method, target, rec.Code)
		}
		if rec.Code == 500 && !strings.Contains(rec.Body.String(), "unlucky hp") {
			t.Fatalf("%s %s %q: 500 %s", method, target, body, rec.Body)
		}
		if rec.Header().Get("Content-Type") == "application/json" {
			var v any
			if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
				t.Fatalf("%s %s: invalid JSON %q", method, target, rec.Body)
			}
			if m, ok := v.(map[string]any); rec.Code >= 400 && (!ok || m["error"] == nil) {
				t.Fatalf("%s %s: error answer without error: %s", method, target, rec.Body)
			}
		}
	})
}
