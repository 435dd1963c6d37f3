package schema

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// attrErrorsString lists the problems of err as "offset kind text" items.
func attrErrorsString(err error) string {
	var parts []string
	for _, ae := range AttrErrorList(err) {
		parts = append(parts, fmt.Sprintf("%d:%d:%s", ae.Offset, ae.Kind, ae.Text))
	}
	return strings.Join(parts, " ")
}

// TestParseAttrEveryProblem: a text with several bad chunks reports each
// one, in text order, at its own offset, whatever kind each is; the values
// that parse are still in the patch; errors.As finds the first problem,
// and a single problem is the *AttrError alone.
func TestParseAttrEveryProblem(t *testing.T) {
	s := testSchema(t, testMaterial{})
	for _, c := range []struct {
		in, errs, patch string
	}{
		{"opacity: 2; max-hp: 1.5", "9:0:2 20:0:1.5", ""},
		{"opacity: 2; side: back; max-hp: x", "9:0:2 32:0:x", "side=back"},
		{"colour: red; opacity: 0.5; blue; : 3; repeat: 1 x", "0:1:colour 27:2:blue 33:2:: 3 48:0:x", "opacity=0.5"},
		{"opacity: -1;;; opacity: 2", "9:0:-1 24:0:2", ""},
		{"opacity: 0.5; src: url(a; side: back", "19:2:url(a; side: back", "opacity=0.5"},
		{"side: up; src: url(a;b); side: down", "6:0:up 31:0:down", "src=url(a;b)"},
		{"opacity: 9", "9:0:9", ""},
	} {
		p, err := s.ParseAttr("material", c.in)
		if got := attrErrorsString(err); got != c.errs {
			t.Errorf("ParseAttr(%q) problems %q, want %q (%v)", c.in, got, c.errs, err)
		}
		if got := patchString(s, p); got != c.patch {
			t.Errorf("ParseAttr(%q) patch %q, want %q", c.in, got, c.patch)
		}
		list := AttrErrorList(err)
		var first *AttrError
		if !errors.As(err, &first) || first != list[0] {
			t.Errorf("ParseAttr(%q): errors.As finds %v, want the first problem %v", c.in, first, list[0])
		}
		var many AttrErrors
		if isList := errors.As(err, &many); isList != (len(list) > 1) {
			t.Errorf("ParseAttr(%q): %d problems, error %T", c.in, len(list), err)
		}
		var lines []string
		for _, ae := range list {
			lines = append(lines, ae.Error())
		}
		if err.Error() != strings.Join(lines, "\n") {
			t.Errorf("ParseAttr(%q) message %q, want one line per problem", c.in, err)
		}
	}
}

// TestParseMapEveryProblem: ParseMap reports every bad pair, each with its
// Pair index, and keeps the pairs that parse.
func TestParseMapEveryProblem(t *testing.T) {
	s := testSchema(t, testMaterial{})
	p, err := s.ParseMap("material", [][2]string{{"opacity", "2"}, {"side", "back"}, {"colour", "red"}, {"", "1"}, {"max-hp", " 1.5"}})
	list := AttrErrorList(err)
	var pairs []string
	for _, ae := range list {
		pairs = append(pairs, fmt.Sprintf("%d:%d:%d:%s", ae.Pair, ae.Kind, ae.Offset, ae.Text))
	}
	if got, want := strings.Join(pairs, " "), "0:0:0:2 2:1:0:colour 3:2:0: 4:0:1:1.5"; got != want {
		t.Errorf("ParseMap problems %q, want %q (%v)", got, want, err)
	}
	if got := patchString(s, p); got != "side=back" {
		t.Errorf("ParseMap patch %q", got)
	}
}

// TestAttrErrorsBounded: a hostile text of many bad chunks or pairs
// reports MaxAttrErrors problems and stops there, in time linear in the
// text it read.
func TestAttrErrorsBounded(t *testing.T) {
	s := testSchema(t, testMaterial{})
	for _, text := range []string{
		strings.Repeat("x;", 1_000_000),
		strings.Repeat("opacity: 2;", 100_000),
		strings.Repeat("zz: 1;", 100_000),
	} {
		start := time.Now()
		_, err := s.ParseAttr("m", text)
		if n := len(AttrErrorList(err)); n != MaxAttrErrors {
			t.Errorf("%.12q...: %d problems, want %d", text, n, MaxAttrErrors)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%.12q...: %v", text, d)
		}
	}
	kv := make([][2]string, 10*MaxAttrErrors)
	for i := range kv {
		kv[i] = [2]string{"opacity", "7"}
	}
	if _, err := s.ParseMap("m", kv); len(AttrErrorList(err)) != MaxAttrErrors {
		t.Errorf("ParseMap: %d problems, want %d", len(AttrErrorList(err)), MaxAttrErrors)
	}
}

// TestAttrErrorList: the list is found through wrapping, and is nil for
// other errors.
func TestAttrErrorList(t *testing.T) {
	s := testSchema(t, testMaterial{})
	_, err := s.ParseAttr("m", "opacity: 2; side: up")
	if n := len(AttrErrorList(fmt.Errorf("set: %w", err))); n != 2 {
		t.Errorf("wrapped AttrErrors: %d problems", n)
	}
	_, err = s.ParseAttr("m", "opacity: 2")
	if n := len(AttrErrorList(fmt.Errorf("set: %w", err))); n != 1 {
		t.Errorf("wrapped AttrError: %d problems", n)
	}
	if AttrErrorList(errors.New("x")) != nil || AttrErrorList(nil) != nil {
		t.Error("AttrErrorList of a foreign error is not nil")
	}
}
