package schema

import (
	"errors"
	"strings"
	"testing"
)

func TestAttrErrorMessages(t *testing.T) {
	cause := errors.New("boom")
	for _, c := range []struct {
		e    *AttrError
		want string
	}{
		{&AttrError{Kind: InvalidValue, Component: "health", Property: "hp", Text: "abc", Expected: "an integer"},
			`health: property "hp": invalid value "abc": expected an integer`},
		{&AttrError{Kind: InvalidValue, Component: "position", Text: "1 x", Expected: "a number"},
			`position: invalid value "1 x": expected a number`},
		{&AttrError{Kind: UnknownProperty, Component: "health", Property: "hq", Text: "hq", Suggest: "hp"},
			`health: unknown property "hq" (did you mean "hp"?)`},
		{&AttrError{Kind: UnknownProperty, Component: "health", Property: "q", Text: "q", Expected: "one of hp"},
			`health: unknown property "q": expected one of hp`},
		{&AttrError{Kind: UnknownProperty, Property: "q"}, `unknown property "q"`},
		{&AttrError{Kind: InvalidSyntax, Component: "m", Text: "red", Expected: "pairs"},
			`m: invalid text "red": expected pairs`},
		{&AttrError{Kind: InvalidValue, Property: "p", Text: "\"q\"", Expected: "x", Err: cause},
			`property "p": invalid value "\"q\"": expected x`},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
	ae := newValueAttrError("c", "p", cause, "val", 10)
	if !errors.Is(ae, cause) || ae.Text != "val" || ae.Expected != "boom" || ae.Offset != 10 {
		t.Errorf("wrapping a plain error: %+v", ae)
	}
	ve := &ValueError{Text: "b", Offset: 2, Expected: "a digit"}
	ae = newValueAttrError("c", "p", ve, "a b", 5)
	if ae.Text != "b" || ae.Offset != 7 || ae.Expected != "a digit" || !errors.Is(ae, ve) {
		t.Errorf("wrapping a ValueError: %+v", ae)
	}
	if got := ve.Error(); got != `invalid value "b": expected a digit` {
		t.Errorf("ValueError.Error() = %q", got)
	}
}

// TestLongTextQuotedShort: an error about a value of 1 MiB or 100 MB (a
// value a program or an expression made, a huge line of a generated
// scene) is one short line: the value's start, quoted, and its length.
// Before, it quoted the value whole.
func TestLongTextQuotedShort(t *testing.T) {
	s := testSchema(t, testMaterial{})
	long, huge := strings.Repeat("x", 1<<20), strings.Repeat("x", 100_000_369)
	for _, in := range []string{"side: " + long, "color: " + long, long + ": 1"} {
		_, err := s.ParseAttr("material", in)
		if err == nil {
			t.Fatal("no error")
		}
		msg := err.Error()
		if len(msg) > 400 || !strings.Contains(msg, `xxxx…" (`) || !strings.Contains(msg, " bytes)") {
			t.Errorf("%.60s...: %.600s (%d bytes)", in, msg, len(msg))
		}
	}
	for _, e := range []error{
		&ValueError{Text: huge, Expected: "a number"},
		&AttrError{Kind: InvalidSyntax, Text: huge, Expected: "pairs"},
	} {
		want := `invalid `
		if msg := e.Error(); len(msg) > 300 || !strings.HasPrefix(msg, want) || !strings.Contains(msg, "(100000369 bytes)") {
			t.Errorf("%.600s (%d bytes)", msg, len(msg))
		}
	}
}
