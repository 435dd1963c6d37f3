package didyoumean

import (
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

// TestHint: the one wording of a suggestion, appended to a message, and
// nothing when no name is close.
func TestHint(t *testing.T) {
	props := []string{"color", "opacity"}
	for _, c := range []struct{ name, want string }{
		{"colour", ` (did you mean "color"?)`},
		{"OPACTY", ` (did you mean "opacity"?)`},
		{"texture", ""},
		{"", ""},
	} {
		if got := Hint(c.name, props); got != c.want {
			t.Errorf("Hint(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := Phrase(`say "hi"`); got != ` (did you mean "say \"hi\""?)` {
		t.Errorf("Phrase quotes badly: %s", got)
	}
	if got := Phrase(""); got != "" {
		t.Errorf(`Phrase("") = %q`, got)
	}
}

func ExampleHint() {
	fmt.Println("unknown property \"colour\"" + Hint("colour", []string{"color", "opacity"}))
	// Output:
	// unknown property "colour" (did you mean "color"?)
}
