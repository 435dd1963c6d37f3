package inspect

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// cellTexts returns a table row's cells as text ("<nil>" for none).
func cellTexts(r tableRow) []string {
	out := make([]string, len(r.Cells))
	for i, c := range r.Cells {
		if c == nil {
			out[i] = "<nil>"
		} else {
			out[i] = *c
		}
	}
	return out
}

// TestTable: GET /api/table answers a selector's matches in document
// order, with the columns the selector names or those asked for
// (components, properties, a vector's axes), null where an entity lacks
// the component, and only the rows from offset to offset+limit, the
// count being all the matches.
func TestTable(t *testing.T) {
	e := newEnv(t, Options{}).start()
	get := func(q url.Values) tableResult {
		t.Helper()
		var out tableResult
		e.get("/api/table?"+q.Encode()).expect(t, http.StatusOK).json(t, &out)
		return out
	}
	// The selector's own columns, property paths included.
	r := get(url.Values{"selector": {"[enemy][velocity.y<0], [health.hp<60]"}})
	if !slices.Equal(r.Columns, []string{"enemy", "velocity.y", "health.hp"}) || r.Count != 2 {
		t.Fatalf("columns %q, count %d", r.Columns, r.Count)
	}
	want := map[string][]string{"ship": {"<nil>", "<nil>", "50"}, "rock-1": {"", "-1", "<nil>"}}
	if len(r.Rows) != 2 || r.Rows[0].Ref != "ship" || r.Rows[1].Ref != "rock-1" {
		t.Fatalf("rows %+v", r.Rows)
	}
	for _, row := range r.Rows {
		if got := cellTexts(row); !slices.Equal(got, want[row.Ref]) || row.Handle == "" {
			t.Errorf("%s: cells %q handle %q, want %q", row.Ref, got, row.Handle, want[row.Ref])
		}
	}
	// Columns asked for: a whole component, a property, an axis.
	r = get(url.Values{"selector": {"[position]"}, "components": {"spin, spin.speed,position.x"}})
	if !slices.Equal(r.Columns, []string{"spin", "spin.speed", "position.x"}) {
		t.Errorf("columns %q", r.Columns)
	}
	byRef := map[string][]string{}
	for _, row := range r.Rows {
		byRef[row.Ref] = cellTexts(row)
	}
	if got := byRef["wreck"]; !slices.Equal(got, []string{"axis: 0 0 1; speed: 45", "45", "0"}) {
		t.Errorf("wreck %q", got)
	}
	if got := byRef["ship/0"]; !slices.Equal(got, []string{"<nil>", "<nil>", "-1"}) {
		t.Errorf("ship/0 %q", got)
	}
	// A window of the rows: the count is all of them.
	all := get(url.Values{"selector": {"*"}, "limit": {"1000"}})
	page := get(url.Values{"selector": {"*"}, "offset": {"2"}, "limit": {"2"}})
	if page.Count != all.Count || page.Offset != 2 || len(page.Rows) != 2 || page.Rows[0].Ref != all.Rows[2].Ref || page.Rows[1].Ref != all.Rows[3].Ref {
		t.Errorf("offset 2 limit 2 of %d: %+v", all.Count, page)
	}
	if past := get(url.Values{"selector": {"*"}, "offset": {"500"}}); past.Count != all.Count || len(past.Rows) != 0 || past.Rows == nil {
		t.Errorf("past the end: %+v", past)
	}
}

// TestTableErrors: a bad selector, column or window is a 400 saying
// what is wrong.
func TestTableErrors(t *testing.T) {
	e := newEnv(t, Options{}).start()
	for q, want := range map[string]string{
		"":                                   "missing selector",
		"selector=%5Benemy":                  "selector:1:",
		"selector=*&components=nope":         `unknown component "nope"`,
		"selector=*&components=spin.nope":    `spin has no property "nope"`,
		"selector=*&components=spin.speed.x": "expected an axis",
		"selector=*&components=position.q":   "expected an axis",
		"selector=*&components=position.w":   "expected an axis",
		"selector=*&components=health..hp":   `health has no property ""`,
		"selector=*&limit=-1":                "limit=",
		"selector=*&limit=100001":            "limit=",
		"selector=*&offset=x":                "offset=",
	} {
		msg := e.get("/api/table?"+q).expect(t, http.StatusBadRequest).errMsg(t)
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want it to say %q", q, msg, want)
		}
	}
	if code := e.status("/api/table?selector=*"); code != http.StatusOK {
		t.Errorf("a good request: %d", code)
	}
	if r := e.call("POST", "/api/table?selector=*", ""); r.status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", r.status)
	}
}
