package inspect

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/scenecs/scenecs/registry"
)

// TestScheduleEndpoint: GET /api/schedule gives the phases and the
// systems in run order with their access and times; POST disable,
// enable and step turn one off and on and run it once; /api/stats gains
// the per-system times.
func TestScheduleEndpoint(t *testing.T) {
	e := newEnv(t, Options{}).start()
	var s ScheduleInfo
	e.get("/api/schedule").expect(t, http.StatusOK).json(t, &s)
	if len(s.Phases) != 5 || s.Phases[2].Name != registry.PhasePhysics || s.Phases[2].Step == 0 || s.Workers < 1 {
		t.Fatalf("phases %+v, workers %d", s.Phases, s.Workers)
	}
	byName := map[string]SystemInfo{}
	var names []string
	for _, si := range s.Systems {
		byName[si.Name] = si
		names = append(names, si.Name)
	}
	if got := strings.Join(names, " "); got != "physics behaviour spin lifetime spawner transform" {
		t.Errorf("run order %s", got)
	}
	spin := byName["spin"]
	if !spin.Declared || spin.Exclusive || spin.Phase != registry.PhaseUpdate || strings.Join(spin.Writes, ",") != "rotation,spin" || !spin.Enabled {
		t.Errorf("spin: %+v", spin)
	}
	if ph := byName["physics"]; !ph.Exclusive || ph.Phase != registry.PhasePhysics || ph.Order != 0 {
		t.Errorf("physics: %+v", ph)
	}
	// The rock spins while spin runs; not while it is disabled; one
	// step of spin turns it once.
	rot := func() string { return e.attr("rock-1", "rotation") }
	e.call("POST", "/api/schedule/disable?name=spin", "").expect(t, http.StatusOK).json(t, &s)
	if s.Systems[2].Name != "spin" || s.Systems[2].Enabled {
		t.Fatalf("after disable: %+v", s.Systems[2])
	}
	// What does not turn the rock is checked over ten ticks of the
	// World (waited for), not over a time a loaded machine may spend
	// elsewhere.
	tenTicks := func() {
		t.Helper()
		t0 := e.ticks()
		waitFor(t, func() string {
			if n := e.ticks() - t0; n < 10 {
				return fmt.Sprintf("%d ticks, want 10", n)
			}
			return ""
		})
	}
	r0 := rot()
	tenTicks()
	if r1 := rot(); r1 != r0 {
		t.Errorf("a disabled spin turned the rock: %s -> %s", r0, r1)
	}
	e.call("POST", "/api/schedule/step?name=spin", "").expect(t, http.StatusOK)
	r2 := rot()
	if r2 == r0 {
		t.Error("a step of spin did not turn the rock")
	}
	tenTicks()
	if r3 := rot(); r3 != r2 {
		t.Errorf("spin ran on after its step: %s -> %s", r2, r3)
	}
	e.call("POST", "/api/schedule/enable?name=spin", "").expect(t, http.StatusOK)
	waitFor(t, func() string {
		if rot() == r2 {
			return "an enabled spin does not turn the rock"
		}
		return ""
	})
	// Errors: no name, an unknown one, no token, GET.
	e.call("POST", "/api/schedule/step", "").expect(t, http.StatusBadRequest)
	if msg := e.call("POST", "/api/schedule/disable?name=spni", "").expect(t, http.StatusBadRequest).errMsg(t); !strings.Contains(msg, `(did you mean "spin"?)`) {
		t.Errorf("unknown system: %s", msg)
	}
	e.call("POST", "/api/schedule/disable?name=spin", "", "noToken: 1").expect(t, http.StatusUnauthorized)
	e.call("GET", "/api/schedule/step?name=spin", "").expect(t, http.StatusMethodNotAllowed)
	var st Stats
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		e.get("/api/stats").expect(t, http.StatusOK).json(t, &st)
		if len(st.Systems) == 6 && st.Systems[0].Runs > 0 && st.Systems[0].P99 > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(st.Systems) != 6 || st.Systems[0].Name != "physics" || st.Systems[0].P50 <= 0 || st.Systems[0].P99 < st.Systems[0].P50 {
		t.Errorf("stats systems %+v", st.Systems)
	}
}

// attr returns the attribute string of an entity's component, read
// through the API.
func (e *env) attr(ref, comp string) string {
	e.t.Helper()
	var info entityInfo
	e.get("/api/entities/"+ref).expect(e.t, http.StatusOK).json(e.t, &info)
	for _, c := range info.Comps {
		if c.Name == comp {
			return c.Attr
		}
	}
	e.t.Fatalf("%s has no %s", ref, comp)
	return ""
}
