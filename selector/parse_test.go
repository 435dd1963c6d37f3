package selector

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// stripPos returns a deep copy of l with every position zeroed, so that
// trees parsed from different spellings can be compared.
func stripPos(l *SelectorList) *SelectorList {
	if l == nil {
		return nil
	}
	out := &SelectorList{}
	for _, c := range l.Selectors {
		nc := &Complex{}
		for _, cp := range c.Compounds {
			ncp := &Compound{Combinator: cp.Combinator, Universal: cp.Universal}
			for _, s := range cp.Simples {
				switch s := s.(type) {
				case *ID:
					ncp.Simples = append(ncp.Simples, &ID{Name: s.Name})
				case *Class:
					ncp.Simples = append(ncp.Simples, &Class{Name: s.Name})
				case *Attr:
					a := *s
					a.Pos = Pos{}
					ncp.Simples = append(ncp.Simples, &a)
				case *Pseudo:
					p := &Pseudo{Name: s.Name, List: stripPos(s.List), Rel: s.Rel}
					if s.Nth != nil {
						p.Nth = &Nth{A: s.Nth.A, B: s.Nth.B}
					}
					ncp.Simples = append(ncp.Simples, p)
				}
			}
			nc.Compounds = append(nc.Compounds, ncp)
		}
		out.Selectors = append(out.Selectors, nc)
	}
	return out
}

// checkRoundTrip asserts the printer invariants for an accepted tree.
func checkRoundTrip(t *testing.T, src string, l *SelectorList) {
	t.Helper()
	s1 := l.String()
	l2, err := ParseWithOptions(s1, Options{MaxLength: 1 << 30})
	if err != nil {
		t.Fatalf("%q printed as %q, which does not parse: %v", src, s1, err)
	}
	if a, b := stripPos(l), stripPos(l2); !reflect.DeepEqual(a, b) {
		t.Fatalf("%q printed as %q, which parses to a different tree:\n%s\n%s", src, s1, dump(a), dump(b))
	}
	if s2 := l2.String(); s2 != s1 {
		t.Fatalf("%q: String not idempotent: %q then %q", src, s1, s2)
	}
}

// checkPositions asserts that every node's column lies within src.
func checkPositions(t *testing.T, src string, l *SelectorList) {
	t.Helper()
	in := func(n Node) {
		if c := n.Position().Col; c < 1 || c > len(src) {
			t.Fatalf("%q: node %T has column %d outside 1..%d", src, n, c, len(src))
		}
	}
	var walk func(l *SelectorList)
	walk = func(l *SelectorList) {
		in(l)
		for _, c := range l.Selectors {
			in(c)
			for _, cp := range c.Compounds {
				in(cp)
				for _, s := range cp.Simples {
					in(s)
					if p, ok := s.(*Pseudo); ok {
						if p.Nth != nil {
							in(p.Nth)
						}
						if p.List != nil {
							walk(p.List)
						}
					}
				}
			}
		}
	}
	walk(l)
}

// dump renders a tree for failure messages.
func dump(l *SelectorList) string {
	var b strings.Builder
	var list func(l *SelectorList, indent string)
	list = func(l *SelectorList, indent string) {
		for _, c := range l.Selectors {
			b.WriteString(indent + "complex\n")
			for _, cp := range c.Compounds {
				b.WriteString(indent + "  compound comb=" + reprComb(cp.Combinator))
				if cp.Universal {
					b.WriteString(" *")
				}
				b.WriteString("\n")
				for _, s := range cp.Simples {
					b.WriteString(indent + "    " + reflect.TypeOf(s).Elem().Name() + " " + strings.TrimPrefix(reprSimple(s), "&") + "\n")
					if p, ok := s.(*Pseudo); ok && p.List != nil {
						list(p.List, indent+"      ")
					}
				}
			}
		}
	}
	list(l, "")
	return b.String()
}

func reprComb(c Combinator) string { return [...]string{"none", "desc", ">", "+", "~"}[c] }

func reprSimple(s Simple) string {
	switch s := s.(type) {
	case *Attr:
		return strings.Join([]string{s.Comp, s.Prop, s.Op.String(), s.Value, map[bool]string{true: "num"}[s.Numeric],
			map[bool]string{true: "ref"}[s.Ref], map[bool]string{true: "var"}[s.Var], s.Flag.String()}, "|")
	case *Pseudo:
		if s.Nth != nil {
			return s.Name + " " + s.Nth.String()
		}
		return s.Name + " " + s.Rel
	case *ID:
		return s.Name
	case *Class:
		return s.Name
	}
	return "?"
}

var validTests = []struct {
	src, want string // want is the canonical String
}{
	// simple selectors
	{"*", "*"},
	{"#player", "#player"},
	{"#1abc", "#1abc"},
	{"#a-b_c", "#a-b_c"},
	{".weapon", ".weapon"},
	{"*.a", "*.a"},
	{".a.b#c", ".a.b#c"},
	{".-a", ".-a"},
	{".--a", ".--a"},
	{"._a", "._a"},
	{".é", ".é"},
	// case sensitivity is preserved
	{".Enemy.enemy", ".Enemy.enemy"},
	{"[maxHP]", "[maxHP]"},
	// attributes
	{"[health]", "[health]"},
	{"[ health ]", "[health]"},
	{"[sound__1]", "[sound__1]"},
	{"[sound__footstep.volume>0.5]", "[sound__footstep.volume>0.5]"},
	{"[health.hp]", "[health.hp]"},
	{"[team=red]", "[team=red]"},
	{"[team = red]", "[team=red]"},
	{"[team='red']", "[team=red]"},
	{`[team="red"]`, "[team=red]"},
	{`[name="two words"]`, `[name="two words"]`},
	{`[name=""]`, `[name=""]`},
	{"[a~=x]", "[a~=x]"},
	{"[a|=x]", "[a|=x]"},
	{"[a^=x]", "[a^=x]"},
	{"[a$=x]", "[a$=x]"},
	{"[a*=x]", "[a*=x]"},
	{"[a!=x]", "[a!=x]"},
	{"[a != x]", "[a!=x]"},
	{"[health.hp<-5]", "[health.hp<-5]"},
	{"[health.hp < -5]", "[health.hp<-5]"},
	{"[health.hp<=10]", "[health.hp<=10]"},
	{"[health.hp>=+3]", "[health.hp>=+3]"},
	{"[position.y>0]", "[position.y>0]"},
	{"[position.y>-1.5]", "[position.y>-1.5]"},
	{"[position.y>.5]", "[position.y>.5]"},
	{"[position.y>-.5]", "[position.y>-.5]"},
	{"[world.position.y<0]", "[world.position.y<0]"},
	{"[a>1e3]", "[a>1e3]"},
	{"[a>1E-3]", "[a>1E-3]"},
	{"[a>2.5e+10]", "[a>2.5e+10]"},
	{"[level=10]", "[level=10]"},
	{`[level="10"]`, `[level="10"]`},
	{"[a=-x]", "[a=-x]"},
	{"[a=--x]", "[a=--x]"},
	{`[a="-5"]`, `[a="-5"]`},
	{`[a="-"]`, `[a="-"]`},
	// flags
	{"[a=x i]", "[a=x i]"},
	{"[a=x s]", "[a=x s]"},
	{"[a=x  i ]", "[a=x i]"},
	{`[a="x"i]`, "[a=x i]"},
	{"[a=i]", "[a=i]"},
	{"[a=i i]", "[a=i i]"},
	{"[a=5 i]", "[a=5 i]"},
	// quoted values with escapes
	{`[a="x\"y"]`, `[a="x\"y"]`},
	{`[a='x"y']`, `[a="x\"y"]`},
	{`[a='it\'s']`, `[a="it's"]`},
	{`[a="back\\slash"]`, `[a="back\\slash"]`},
	{`[a="\41 B"]`, `[a=AB]`},
	{`[a="\41B"]`, `[a=Л]`},
	{`[a="\000041"]`, `[a=A]`},
	{`[a="\0"]`, "[a=\uFFFD]"},
	{`[a="\D800"]`, "[a=\uFFFD]"},
	{`[a="\110000"]`, "[a=\uFFFD]"},
	{`[a="\a"]`, `[a="\a "]`},
	{`[a="\a x"]`, `[a="\a x"]`},
	{`[a="a\` + "\n" + `b"]`, "[a=ab]"},
	{`[a="#4cc3d9"]`, `[a="#4cc3d9"]`},
	{`[a="x]"]`, `[a="x]"]`},
	{`[a=é]`, `[a=é]`},
	// escaped identifiers
	{`.\31 a`, `.\31 a`},
	{`.a\.b`, `.a\.b`},
	{`.a\:b`, `.a\:b`},
	{`.\-`, `.\-`},
	{`.-\31`, `.-\31 `},
	{`#a\ b`, `#a\ b`},
	{`.\61 bc`, `.abc`},
	{`[\61]`, `[a]`},
	{`[a\.b.c]`, `[a\.b.c]`},
	// combinators and whitespace
	{".a .b", ".a .b"},
	{".a   .b", ".a .b"},
	{".a\t\n.b", ".a .b"},
	{".a>.b", ".a > .b"},
	{".a > .b", ".a > .b"},
	{".a  >\t.b", ".a > .b"},
	{".a+.b", ".a + .b"},
	{".a~.b", ".a ~ .b"},
	{".a >.b+ .c ~.d .e", ".a > .b + .c ~ .d .e"},
	{"  .a  ", ".a"},
	{"* > *", "* > *"},
	// lists
	{".a,.b", ".a, .b"},
	{".a , .b ,.c", ".a, .b, .c"},
	{"[x] .a, #b > .c", "[x] .a, #b > .c"},
	// pseudo-classes
	{":root", ":root"},
	{":empty", ":empty"},
	{":first-child", ":first-child"},
	{":last-child", ":last-child"},
	{":only-child", ":only-child"},
	{":scope > [weapon]", ":scope > [weapon]"},
	{".a:not(.b)", ".a:not(.b)"},
	{":not( .b , .c )", ":not(.b, .c)"},
	{":not(.a .b > .c)", ":not(.a .b > .c)"},
	{":is(.a, .b) .c", ":is(.a, .b) .c"},
	{":where(.a)", ":where(.a)"},
	{":not(:is(:where(.a)))", ":not(:is(:where(.a)))"},
	{":has(.a)", ":has(.a)"},
	{":has( .a )", ":has(.a)"},
	{":has(> .a)", ":has(> .a)"},
	{":has(>.a)", ":has(> .a)"},
	{":has(+ .b)", ":has(+ .b)"},
	{":has(~ .c)", ":has(~ .c)"},
	{":has(> .a .b, + .c, .d)", ":has(> .a .b, + .c, .d)"},
	{":has(.a:not(.b))", ":has(.a:not(.b))"},
	{":not(:has(.a))", ":not(:has(.a))"},
	// An+B
	{":nth-child(3)", ":nth-child(3)"},
	{":nth-child(+5)", ":nth-child(5)"},
	{":nth-child(-5)", ":nth-child(-5)"},
	{":nth-child(0)", ":nth-child(0)"},
	{":nth-child(odd)", ":nth-child(2n+1)"},
	{":nth-child(even)", ":nth-child(2n)"},
	{":nth-child( odd )", ":nth-child(2n+1)"},
	{":nth-child(n)", ":nth-child(n)"},
	{":nth-child(+n)", ":nth-child(n)"},
	{":nth-child(-n)", ":nth-child(-n)"},
	{":nth-child(-n+2)", ":nth-child(-n+2)"},
	{":nth-child(2n+1)", ":nth-child(2n+1)"},
	{":nth-child(2n + 1)", ":nth-child(2n+1)"},
	{":nth-child(2n +1)", ":nth-child(2n+1)"},
	{":nth-child(2n+ 1)", ":nth-child(2n+1)"},
	{":nth-child(2n-1)", ":nth-child(2n-1)"},
	{":nth-child(2n- 1)", ":nth-child(2n-1)"},
	{":nth-child(2n - 1)", ":nth-child(2n-1)"},
	{":nth-child(-2n-1)", ":nth-child(-2n-1)"},
	{":nth-child(1n+0)", ":nth-child(n)"},
	{":nth-child(0n+3)", ":nth-child(3)"},
	{":nth-child(n-0)", ":nth-child(n)"},
	{":nth-child(+3n-2)", ":nth-child(3n-2)"},
	{":nth-child(2147483647n)", ":nth-child(2147483647n)"},
	{":nth-child(2n+1 of .a)", ":nth-child(2n+1 of .a)"},
	{":nth-child(odd of .a, .b)", ":nth-child(2n+1 of .a, .b)"},
	{":nth-child(n of.a)", ":nth-child(n of .a)"},
	{":nth-last-child(2)", ":nth-last-child(2)"},
	{":nth-last-child(-n+3 of [x] > .y)", ":nth-last-child(-n+3 of [x] > .y)"},
	// mixed
	{"#level > .enemy[health.hp<=0]:not([boss]) ~ *", "#level > .enemy[health.hp<=0]:not([boss]) ~ *"},
}

func TestParseValid(t *testing.T) {
	tests := validTests
	for _, tt := range tests {
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
}

var invalidTests = []struct {
	src, want string
}{
	{"", "selector:1:1: empty selector"},
	{"   ", "selector:1:1: empty selector"},
	{"enemy", `selector:1:1: unexpected name "enemy": entities have no type; write [enemy] for a component or .enemy for a class`},
	{".a enemy", `selector:1:4: unexpected name "enemy": entities have no type; write [enemy] for a component or .enemy for a class`},
	{"*:hover", `selector:1:2: unknown pseudo-class ":hover"`},
	{":hover", `selector:1:1: unknown pseudo-class ":hover"`},
	{":contains(x)", `selector:1:1: unknown pseudo-class ":contains"`},
	{":NOT(.a)", `selector:1:1: unknown pseudo-class ":NOT"`},
	{":Root", `selector:1:1: unknown pseudo-class ":Root"`},
	{"::before", `selector:1:1: pseudo-elements are not supported: "::before"`},
	{".a::x", `selector:1:3: pseudo-elements are not supported: "::x"`},
	{":", "selector:1:2: expected pseudo-class name after ':', found end of input"},
	{":1", "selector:1:2: expected pseudo-class name after ':', found '1'"},
	{":root()", `selector:1:6: pseudo-class ":root" takes no arguments`},
	{":not", `selector:1:5: expected '(' after ":not"`},
	{":not .a", `selector:1:5: expected '(' after ":not"`},
	{":not()", `selector:1:6: expected selector in ":not()"`},
	{":is( )", `selector:1:6: expected selector in ":is()"`},
	{":not(.a", `selector:1:8: expected ')' to close ":not(", found end of input`},
	{":not(.a]", `selector:1:8: unexpected ']'`},
	{":not(.a,)", `selector:1:9: expected selector after ','`},
	{":not(,.a)", `selector:1:6: expected selector, found ','`},
	{":not(.a, :bad)", `selector:1:10: unknown pseudo-class ":bad"`},
	{":not(> .a)", `selector:1:6: expected selector before combinator '>'`},
	{":has()", `selector:1:6: expected selector in ":has()"`},
	{":has(>)", `selector:1:7: expected selector, found ')'`},
	{":has(> > .a)", `selector:1:8: expected selector, found '>'`},
	{":has(:has(.a))", `selector:1:6: ":has()" cannot be nested inside ":has()"`},
	{":has(:not(:has(.a)))", `selector:1:11: ":has()" cannot be nested inside ":has()"`},
	// lists (unforgiving)
	{".a,", "selector:1:4: expected selector after ','"},
	{".ab,", "selector:1:5: expected selector after ','"},
	{".a, ", "selector:1:5: expected selector after ','"},
	{".a,,.b", "selector:1:4: expected selector after ','"},
	{",.a", "selector:1:1: expected selector, found ','"},
	{".a, :hover, .b", `selector:1:5: unknown pseudo-class ":hover"`},
	// combinators
	{"> .a", "selector:1:1: expected selector before combinator '>'"},
	{"+.a", "selector:1:1: expected selector before combinator '+'"},
	{".a >", "selector:1:5: expected selector after '>', found end of input"},
	{".a > ", "selector:1:6: expected selector after '>', found end of input"},
	{".a > > .b", "selector:1:6: expected selector after '>', found '>'"},
	{".a ~ , .b", "selector:1:6: expected selector after '~', found ','"},
	{".a >)", "selector:1:5: expected selector after '>', found ')'"},
	{".a )", "selector:1:4: unexpected ')'"},
	{".a)", "selector:1:3: unexpected ')'"},
	{".a!", "selector:1:3: unexpected '!'"},
	{".a*", "selector:1:3: unexpected '*'"},
	{"**", "selector:1:2: unexpected '*'"},
	{".a]", "selector:1:3: unexpected ']'"},
	{".a\x00", `selector:1:3: unexpected '\x00'`},
	{"|a", "selector:1:1: expected selector, found '|'"},
	// ids and classes
	{"#", "selector:1:2: expected id after '#', found end of input"},
	{"# a", "selector:1:2: expected id after '#', found ' '"},
	{".", "selector:1:2: expected class name after '.', found end of input"},
	{".1a", "selector:1:2: expected class name after '.', found '1'"},
	{".-1", "selector:1:2: expected class name after '.', found '-'"},
	{".-", "selector:1:2: expected class name after '.', found '-'"},
	{`.\`, `selector:1:2: expected class name after '.', found '\\'`},
	{`.a\`, `selector:1:3: unexpected '\\'`},
	// attributes
	{"[", "selector:1:2: expected component name after '[', found end of input"},
	{"[]", "selector:1:2: expected component name after '[', found ']'"},
	{"[1]", "selector:1:2: expected component name after '[', found '1'"},
	{"[health", "selector:1:8: expected ']' to close attribute selector"},
	{"[health x", "selector:1:9: expected ']' to close attribute selector"},
	{"[health.]", "selector:1:9: expected property name after '.', found ']'"},
	{"[health. hp]", "selector:1:9: expected property name after '.', found ' '"},
	{"[health.hp.]", "selector:1:12: expected axis name after '.', found ']'"},
	{"[health.hp.x.y]", "selector:1:13: expected ']' to close attribute selector"},
	{"[a=]", "selector:1:4: expected value after '=', found ']'"},
	{"[a=", "selector:1:4: expected value after '=', found end of input"},
	{"[a=x", "selector:1:5: expected ']' to close attribute selector"},
	{"[a=x y]", `selector:1:6: unknown attribute flag "y" (expected i or s)`},
	{"[a=x I]", `selector:1:6: unknown attribute flag "I" (expected i or s)`},
	{"[a=x i i]", "selector:1:8: expected ']' to close attribute selector"},
	{"[a=x i", "selector:1:7: expected ']' to close attribute selector"},
	{"[a==x]", "selector:1:4: expected value after '=', found '='"},
	{"[a!x]", "selector:1:4: expected '=' after '!'"},
	{"[a~x]", "selector:1:4: expected '=' after '~'"},
	{"[a|b]", "selector:1:4: expected '=' after '|'"},
	{"[a=@x]", "selector:1:4: expected value after '=', found '@'"}, // [a=#x] is a reference (issue 34)
	{"[a=+]", "selector:1:4: expected value after '=', found '+'"},
	{"[a=-]", "selector:1:4: expected value after '=', found '-'"},
	{"[a=1e]", `selector:1:4: invalid number "1e"`},
	{"[a=10px]", `selector:1:4: invalid number "10px"`},
	{"[a=5-3]", `selector:1:4: invalid number "5-3"`},
	{"[a=1.]", "selector:1:5: expected ']' to close attribute selector"},
	{"[a=1.2.3]", "selector:1:7: expected ']' to close attribute selector"},
	{"[hp<x]", "selector:1:5: expected number after '<'"},
	{`[hp<"5"]`, "selector:1:5: expected number after '<'"},
	{"[hp>=abc]", "selector:1:6: expected number after '>='"},
	{"[hp<5 i]", "selector:1:7: flag 'i' not allowed with numeric operator '<'"},
	{"[hp< -x]", "selector:1:6: expected number after '<'"},
	{"[hp<- 5]", "selector:1:5: expected value after '<', found '-'"},
	// strings
	{`[a="x]`, "selector:1:4: unterminated string"},
	{`[a='x`, "selector:1:4: unterminated string"},
	{`[a="x\`, "selector:1:4: unterminated string"},
	{"[a=\"x\ny\"]", "selector:1:6: newline in string"},
	// An+B
	{":nth-child", `selector:1:11: expected '(' after ":nth-child"`},
	{":nth-child()", `selector:1:12: expected An+B in ":nth-child()", found ')'`},
	{":nth-child(x)", `selector:1:12: expected An+B in ":nth-child()", found 'x'`},
	{":nth-child(odds)", `selector:1:12: expected An+B in ":nth-child()", found 'o'`},
	{":nth-child(ODD)", `selector:1:12: expected An+B in ":nth-child()", found 'O'`},
	{":nth-child(2N+1)", `selector:1:13: expected ')' or "of" after An+B in ":nth-child()", found 'N'`},
	{":nth-child(+ 5)", `selector:1:12: expected An+B in ":nth-child()", found '+'`},
	{":nth-child(+ n)", `selector:1:12: expected An+B in ":nth-child()", found '+'`},
	{":nth-child(- n+1)", `selector:1:12: expected An+B in ":nth-child()", found '-'`},
	{":nth-child(2 n)", `selector:1:14: expected ')' or "of" after An+B in ":nth-child()", found 'n'`},
	{":nth-child(2n1)", `selector:1:12: expected An+B in ":nth-child()", found '2'`},
	{":nth-child(2nx)", `selector:1:12: expected An+B in ":nth-child()", found '2'`},
	{":nth-child(2n + +1)", `selector:1:17: expected integer after '+' in ":nth-child()", found '+'`},
	{":nth-child(2n - -1)", `selector:1:17: expected integer after '-' in ":nth-child()", found '-'`},
	{":nth-child(2n+)", `selector:1:15: expected integer after '+' in ":nth-child()", found ')'`},
	{":nth-child(2n--1)", `selector:1:15: expected integer after '-' in ":nth-child()", found '-'`},
	{":nth-child(1.5)", `selector:1:13: expected ')' or "of" after An+B in ":nth-child()", found '.'`},
	{":nth-child(3 4)", `selector:1:14: expected ')' or "of" after An+B in ":nth-child()", found '4'`},
	{":nth-child(2n+1", `selector:1:16: expected ')' to close ":nth-child(", found end of input`},
	{":nth-child(2n+1of .a)", `selector:1:16: expected ')' or "of" after An+B in ":nth-child()", found 'o'`},
	{":nth-child(2n+1 ofx)", `selector:1:17: expected ')' or "of" after An+B in ":nth-child()", found 'o'`},
	{":nth-child(2n+1 of)", `selector:1:19: expected selector in ":nth-child()"`},
	{":nth-child(2n+1 of :hover)", `selector:1:20: unknown pseudo-class ":hover"`},
	{":nth-child(2147483648)", `selector:1:12: integer out of range in ":nth-child()"`},
	{":nth-last-child(99999999999n)", `selector:1:17: integer out of range in ":nth-last-child()"`},
}

func TestParseInvalid(t *testing.T) {
	tests := invalidTests
	for _, tt := range tests {
		l, err := Parse(tt.src)
		if err == nil {
			t.Errorf("Parse(%q) = %q, want error %q", tt.src, l, tt.want)
			continue
		}
		var se *Error
		if !errors.As(err, &se) {
			t.Errorf("Parse(%q): error %T is not *Error", tt.src, err)
		}
		if l != nil {
			t.Errorf("Parse(%q): non-nil list with error", tt.src)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestLongNamesQuotedShort: an error about a name or value of 1 MiB (a
// selector allowed to be that long) quotes its start and its length, on
// one short line.
func TestLongNamesQuotedShort(t *testing.T) {
	long := strings.Repeat("q", 1<<20)
	for _, src := range []string{long, "[a=1" + long + "]", "[a=b " + long + "]"} {
		_, err := ParseWithOptions(src, Options{MaxLength: 2 << 20})
		if err == nil {
			t.Fatalf("%.20s...: no error", src)
		}
		if msg := err.Error(); len(msg) > 900 || !strings.Contains(msg, "qqq…") || !strings.Contains(msg, "(1048577 bytes)") && !strings.Contains(msg, "(1048576 bytes)") {
			t.Errorf("%.20s...: %.800s (%d bytes)", src, msg, len(msg))
		}
	}
}
