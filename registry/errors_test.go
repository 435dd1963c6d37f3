package registry

import (
	"errors"
	"fmt"
	"testing"
)

func TestNearest(t *testing.T) {
	cands := []string{"color", "opacity", "maxHp", "src", "position"}
	for _, c := range []struct {
		name, want string
	}{
		{"colour", "color"},
		{"Color", "color"},
		{"opacty", "opacity"},
		{"max-hp", "maxHp"},
		{"max_hp", "maxHp"},
		{"MAXHP", "maxHp"},
		{"postion", "position"},
		{"srcs", "src"},
		{"x", ""},
		{"zzzzzz", ""},
		{"", ""},
	} {
		if got := Nearest(c.name, cands); got != c.want {
			t.Errorf("Nearest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := Nearest("ab", []string{"ax", "ay"}); got != "ax" {
		t.Errorf("tie went to %q, want the earlier candidate", got)
	}
	if got := Nearest("a", nil); got != "" {
		t.Errorf("Nearest with no candidates = %q", got)
	}
}

func TestLevenshtein(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2},
		{"same", "same", 0}, {"ab", "ba", 2},
	} {
		if got := levenshtein(c.a, c.b); got != c.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := levenshtein(c.b, c.a); got != c.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

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

func ExampleNearest() {
	props := []string{"color", "opacity", "maxHp"}
	fmt.Println(Nearest("colour", props))
	fmt.Println(Nearest("max-hp", props))
	fmt.Printf("%q\n", Nearest("texture", props))
	// Output:
	// color
	// maxHp
	// ""
}
