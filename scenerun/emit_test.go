package scenerun

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestParseEmit: SELECTOR:EVENT@TICK[=JSON], the selector free to hold
// ':' and '@' (inside quotes), the detail any JSON.
func TestParseEmit(t *testing.T) {
	for _, tc := range []struct {
		in, sel, event string
		tick           int
		detail         any
	}{
		{"#door:open@30", "#door", "open", 30, nil},
		{".rock:hit@0", ".rock", "hit", 0, nil},
		{`[label="a@1:b"]:hit@7`, `[label="a@1:b"]`, "hit", 7, nil},
		{"#a:not(.b):animationcomplete__open@2", "#a:not(.b)", "animationcomplete__open", 2, nil},
		{`#a:hit@3={"damage": 5, "at": "x@4=y"}`, "#a", "hit", 3, map[string]any{"damage": 5.0, "at": "x@4=y"}},
		{`#a:hit@3=[1, 2]`, "#a", "hit", 3, []any{1.0, 2.0}},
	} {
		s, err := parseEmit(tc.in)
		if err != nil || s.selector != tc.sel || s.event != tc.event || s.tick != tc.tick || !reflect.DeepEqual(s.detail, tc.detail) {
			t.Errorf("%q: %+v %v", tc.in, s, err)
		}
	}
}

// FuzzParseEmit: any text parses or is refused with a message; what
// parses has a selector, a valid event name, a tick >= 0, and a detail
// that is JSON.
func FuzzParseEmit(f *testing.F) {
	for _, s := range []string{"#door:open@30", `[label="a@1:b"]:hit@7`, `#a:hit@3={"damage": 5}`, "#a:hit", "#a@3", ":hit@3", "#a:hit@-1", "a >> b:hit@3", "#a:hit@99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := parseEmit(in)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty message", in)
			}
			return
		}
		if s.selector == "" || !validEventName(s.event) || s.tick < 0 || !strings.Contains(in, s.event+"@") {
			t.Fatalf("%q: %+v", in, s)
		}
		if _, err := json.Marshal(s.detail); err != nil {
			t.Fatalf("%q: detail %v", in, err)
		}
	})
}
