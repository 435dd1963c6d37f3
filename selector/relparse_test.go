package selector

import (
	"errors"
	"testing"
)

// The syntax of relations and variables (issue 34): references `#id` and
// variables `$name` as attribute values, :to(REL, list) and
// :from(REL, list).

var relValidTests = []struct {
	src, want string // want is the canonical String
}{
	{"[docked=#p1]", "[docked=#p1]"},
	{"[ docked = #p1 ]", "[docked=#p1]"},
	{"[docked=#1-a]", "[docked=#1-a]"},
	{`[docked=#a\ b]`, `[docked=#a\ b]`},
	{"[dock.at=#p1]", "[dock.at=#p1]"},
	{"[faction=$f]", "[faction=$f]"},
	{"[docked=$this]", "[docked=$this]"},
	{`[a=$\31 x]`, `[a=$\31 x]`},
	{"[ship][faction=$f]:to(docked, [faction=$f])", "[ship][faction=$f]:to(docked, [faction=$f])"},
	{":to(docked,[planet])", ":to(docked, [planet])"},
	{":to( docked , [planet], #p1 )", ":to(docked, [planet], #p1)"},
	{":to(dock.at, *)", ":to(dock.at, *)"},
	{`:to(a\.b\.c, *)`, `:to(a\.b\.c, *)`},
	{":from(owner, [target=$this])", ":from(owner, [target=$this])"},
	{":from(holds, :to(docked, #p1)) > .a", ":from(holds, :to(docked, #p1)) > .a"},
	{":has(> :to(docked, .x))", ":has(> :to(docked, .x))"},
	{":not(:to(docked, [faction=$f]))", ":not(:to(docked, [faction=$f]))"},
	// $ before = is still the suffix operator.
	{"[a$=x]", "[a$=x]"},
}

func TestParseRelations(t *testing.T) {
	for _, tt := range relValidTests {
		l, err := Parse(tt.src)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.src, err)
			continue
		}
		if got := l.String(); got != tt.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tt.src, got, tt.want)
		}
		checkRoundTrip(t, tt.src, l)
		checkPositions(t, tt.src, l)
	}
	l := MustParse("[a=#x]:to(b.c, *)")
	a := l.Selectors[0].Compounds[0].Simples[0].(*Attr)
	ps := l.Selectors[0].Compounds[0].Simples[1].(*Pseudo)
	if !a.Ref || a.Var || a.Value != "x" || ps.Rel != "b.c" || ps.RelPos.Col != 11 {
		t.Errorf("got %+v, %+v", a, ps)
	}
}

var relInvalidTests = []struct {
	src, want string
}{
	{"[docked=#]", `selector:1:10: expected id after '#', found ']'`},
	{"[docked=$]", `selector:1:10: expected variable name after '$', found ']'`},
	{"[docked=$1]", `selector:1:10: expected variable name after '$', found '1'`},
	{"[docked!=#p1]", `selector:1:10: operator '!=' does not take a reference (#id); only '=' does`},
	{"[hp<$x]", `selector:1:5: operator '<' does not take a variable ($name); only '=' does`},
	{"[a^=$x]", `selector:1:5: operator '^=' does not take a variable ($name); only '=' does`},
	{"[a=$x i]", `selector:1:7: flag 'i' not allowed with a variable ($name)`},
	{":to()", `selector:1:5: expected relation name in ":to()", found ')'`},
	{":to([planet])", `selector:1:5: expected relation name in ":to()", found '['`},
	{":to(docked)", `selector:1:11: expected ',' after the relation in ":to()", found ')'`},
	{":from(docked [x])", `selector:1:14: expected ',' after the relation in ":from()", found '['`},
	{":to(docked,)", `selector:1:12: expected selector in ":to()"`},
	{":to(docked.)", `selector:1:12: expected property name after '.', found ')'`},
	{":to(docked, .a", `selector:1:15: expected ')' to close ":to(", found end of input`},
	{":to", `selector:1:4: expected '(' after ":to"`},
}

func TestParseRelationsInvalid(t *testing.T) {
	for _, tt := range relInvalidTests {
		l, err := Parse(tt.src)
		var se *Error
		if err == nil || !errors.As(err, &se) || l != nil {
			t.Errorf("Parse(%q) = %v, %v; want *Error %q", tt.src, l, err, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}
