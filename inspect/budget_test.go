package inspect

import (
	"net/http"
	"strings"
	"testing"
)

// TestPostEventBudget: an event POSTed to a handler that emits its own
// event twice (2³² deliveries asked) ends at the Registry's delivery
// budget, one per call, and the answer says so.
func TestPostEventBudget(t *testing.T) {
	e := newBehaviourEnv(t, `entities:
  - id: bomb
    on__a: "emit: a, a"
`)
	e.sim(func() { e.reg.Limits.MaxDeliveries = 2000 })
	for range 2 {
		var got sentEvent
		e.call("POST", "/api/entities/bomb/events/a", ``).expect(t, http.StatusOK).json(t, &got)
		want := "entity #bomb: on__a: a: more than 2000 event deliveries in one inspector call (Limits.MaxDeliveries): the rest were dropped"
		if !strings.Contains(strings.Join(got.Errors, "\n"), want) {
			t.Errorf("answer's errors %q lack %q", got.Errors, want)
		}
	}
}
