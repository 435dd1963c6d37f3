package selector

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestASTShape(t *testing.T) {
	l, err := Parse(`#lvl > *.e[health.hp < -5]:not(.b, [x=y i]) ~ :has(+ .c) :nth-child(2n+1 of [q="1"])`)
	if err != nil {
		t.Fatal(err)
	}
	want := &SelectorList{Pos: Pos{1}, Selectors: []*Complex{{
		Pos: Pos{1},
		Compounds: []*Compound{
			{Pos: Pos{1}, Simples: []Simple{&ID{Pos{1}, "lvl"}}},
			{Pos: Pos{8}, Combinator: Child, Universal: true, Simples: []Simple{
				&Class{Pos{9}, "e"},
				&Attr{Pos: Pos{11}, Comp: "health", Prop: "hp", Op: OpLt, Value: "-5", Numeric: true},
				&Pseudo{Pos: Pos{27}, Name: "not", List: &SelectorList{Pos: Pos{32}, Selectors: []*Complex{
					{Pos: Pos{32}, Compounds: []*Compound{{Pos: Pos{32}, Simples: []Simple{&Class{Pos{32}, "b"}}}}},
					{Pos: Pos{36}, Compounds: []*Compound{{Pos: Pos{36}, Simples: []Simple{
						&Attr{Pos: Pos{36}, Comp: "x", Op: OpEq, Value: "y", Flag: FlagI},
					}}}},
				}}},
			}},
			{Pos: Pos{47}, Combinator: SubsequentSibling, Simples: []Simple{
				&Pseudo{Pos: Pos{47}, Name: "has", List: &SelectorList{Pos: Pos{52}, Selectors: []*Complex{
					{Pos: Pos{52}, Compounds: []*Compound{{Pos: Pos{54}, Combinator: NextSibling, Simples: []Simple{&Class{Pos{54}, "c"}}}}},
				}}},
			}},
			{Pos: Pos{58}, Combinator: Descendant, Simples: []Simple{
				&Pseudo{Pos: Pos{58}, Name: "nth-child", Nth: &Nth{Pos{69}, 2, 1}, List: &SelectorList{Pos: Pos{77}, Selectors: []*Complex{
					{Pos: Pos{77}, Compounds: []*Compound{{Pos: Pos{77}, Simples: []Simple{
						&Attr{Pos: Pos{77}, Comp: "q", Op: OpEq, Value: "1"},
					}}}},
				}}},
			}},
		},
	}}}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("tree mismatch:\n got %s\nwant %s", dumpPos(l), dumpPos(want))
	}
}

// dumpPos renders every node with its column.
func dumpPos(l *SelectorList) string {
	var b strings.Builder
	var list func(l *SelectorList)
	list = func(l *SelectorList) {
		fmt.Fprintf(&b, "list@%d[", l.Col)
		for _, c := range l.Selectors {
			fmt.Fprintf(&b, "complex@%d(", c.Col)
			for _, cp := range c.Compounds {
				fmt.Fprintf(&b, "compound@%d %s {", cp.Col, reprComb(cp.Combinator))
				for _, s := range cp.Simples {
					fmt.Fprintf(&b, "%s@%d %s; ", reflect.TypeOf(s).Elem().Name(), s.Position().Col, reprSimple(s))
					if p, ok := s.(*Pseudo); ok {
						if p.Nth != nil {
							fmt.Fprintf(&b, "nth@%d ", p.Nth.Col)
						}
						if p.List != nil {
							list(p.List)
						}
					}
				}
				b.WriteString("} ")
			}
			b.WriteString(") ")
		}
		b.WriteString("]")
	}
	list(l)
	return b.String()
}

func TestHasLeadingCombinators(t *testing.T) {
	for src, want := range map[string]Combinator{
		":has(.a)":    Descendant,
		":has(> .a)":  Child,
		":has(+.a)":   NextSibling,
		":has( ~ .a)": SubsequentSibling,
	} {
		l := MustParse(src)
		arg := l.Selectors[0].Compounds[0].Simples[0].(*Pseudo).List
		if got := arg.Selectors[0].Compounds[0].Combinator; got != want {
			t.Errorf("%s: leading combinator %v, want %v", src, got, want)
		}
	}
	// Outside :has the first compound has no combinator.
	if c := MustParse(".a").Selectors[0].Compounds[0].Combinator; c != NoCombinator {
		t.Errorf("top-level first combinator = %v", c)
	}
	if c := MustParse(":not(.a)").Selectors[0].Compounds[0].Simples[0].(*Pseudo).List.Selectors[0].Compounds[0].Combinator; c != NoCombinator {
		t.Errorf(":not first combinator = %v", c)
	}
}

func TestAttrValues(t *testing.T) {
	tests := []struct {
		src     string
		value   string
		numeric bool
		op      Op
		flag    Flag
	}{
		{"[a=10]", "10", true, OpEq, FlagNone},
		{`[a="10"]`, "10", false, OpEq, FlagNone},
		{"[a<-1.5]", "-1.5", true, OpLt, FlagNone},
		{"[a>=1e3]", "1e3", true, OpGe, FlagNone},
		{"[a>+.5]", "+.5", true, OpGt, FlagNone},
		{"[a<=0]", "0", true, OpLe, FlagNone},
		{"[a!=Red i]", "Red", false, OpNe, FlagI},
		{`[a^='x\'y' s]`, "x'y", false, OpPrefix, FlagS},
		{`[a$="\\"]`, `\`, false, OpSuffix, FlagNone},
		{"[a*=-b]", "-b", false, OpSubstring, FlagNone},
		{"[a~=b]", "b", false, OpIncludes, FlagNone},
		{"[a|=en]", "en", false, OpDashMatch, FlagNone},
		{"[a]", "", false, OpExists, FlagNone},
	}
	for _, tt := range tests {
		a := MustParse(tt.src).Selectors[0].Compounds[0].Simples[0].(*Attr)
		if a.Value != tt.value || a.Numeric != tt.numeric || a.Op != tt.op || a.Flag != tt.flag {
			t.Errorf("%s: got value=%q numeric=%v op=%v flag=%v", tt.src, a.Value, a.Numeric, a.Op, a.Flag)
		}
		if a.Op.IsNumeric() != (tt.op >= OpLt) {
			t.Errorf("%s: IsNumeric wrong", tt.src)
		}
	}
}

func TestNthValues(t *testing.T) {
	tests := []struct {
		src  string
		a, b int
	}{
		{"odd", 2, 1}, {"even", 2, 0}, {"3", 0, 3}, {"+5", 0, 5}, {"-5", 0, -5},
		{"n", 1, 0}, {"+n", 1, 0}, {"-n", -1, 0}, {"-n+2", -1, 2}, {"2n+1", 2, 1},
		{"-2n-1", -2, -1}, {"2n - 1", 2, -1}, {"10n+ 3", 10, 3}, {"n +0", 1, 0},
		{"0n", 0, 0}, {"-0n-0", 0, 0},
	}
	for _, tt := range tests {
		src := ":nth-last-child(" + tt.src + ")"
		n := MustParse(src).Selectors[0].Compounds[0].Simples[0].(*Pseudo).Nth
		if n.A != tt.a || n.B != tt.b {
			t.Errorf("%s: got %d,%d want %d,%d", src, n.A, n.B, tt.a, tt.b)
		}
		if n.Col != 17 {
			t.Errorf("%s: Nth column %d, want 17", src, n.Col)
		}
	}
}

func TestLimits(t *testing.T) {
	long := strings.Repeat(".a", DefaultMaxLength/2)
	if _, err := Parse(long); err != nil {
		t.Errorf("selector of exactly %d bytes: %v", len(long), err)
	}
	_, err := Parse(long + "b")
	if want := "selector:1:4097: selector too long (4097 bytes, max 4096)"; err == nil || err.Error() != want {
		t.Errorf("too long: got %v, want %s", err, want)
	}
	_, err = ParseWithOptions(".abc", Options{MaxLength: 3})
	if want := "selector:1:4: selector too long (4 bytes, max 3)"; err == nil || err.Error() != want {
		t.Errorf("MaxLength 3: got %v, want %s", err, want)
	}

	nest := func(n int) string {
		return strings.Repeat(":not(", n) + ".a" + strings.Repeat(")", n)
	}
	if _, err := Parse(nest(DefaultMaxDepth)); err != nil {
		t.Errorf("depth %d: %v", DefaultMaxDepth, err)
	}
	_, err = Parse(nest(DefaultMaxDepth + 1))
	if want := fmt.Sprintf("selector:1:%d: selector nesting too deep (max 32)", 5*DefaultMaxDepth+1); err == nil || err.Error() != want {
		t.Errorf("depth 33: got %v, want %s", err, want)
	}
	_, err = ParseWithOptions(":is(:nth-child(1 of .a))", Options{MaxDepth: 1})
	if want := "selector:1:5: selector nesting too deep (max 1)"; err == nil || err.Error() != want {
		t.Errorf("MaxDepth 1 with of-list: got %v, want %s", err, want)
	}
	if _, err := ParseWithOptions(nest(100), Options{MaxDepth: 100, MaxLength: 1 << 20}); err != nil {
		t.Errorf("MaxDepth 100: %v", err)
	}
	// Sibling arguments do not add up: depth is nesting, not count.
	if _, err := ParseWithOptions(":not(.a):not(.b):is(.c)", Options{MaxDepth: 1}); err != nil {
		t.Errorf("siblings at depth 1: %v", err)
	}
	// Deep input far beyond the limit fails fast without exhausting the stack.
	deep := strings.Repeat(":is(", 1000)
	if _, err := ParseWithOptions(deep, Options{MaxLength: 1 << 20}); err == nil || !strings.Contains(err.Error(), "nesting too deep") {
		t.Errorf("1000-deep: %v", err)
	}
}

func TestErrorType(t *testing.T) {
	_, err := Parse("[a")
	var se *Error
	if !errors.As(err, &se) {
		t.Fatalf("%T is not *Error", err)
	}
	if se.Col != 3 || se.Msg != "expected ']' to close attribute selector" {
		t.Errorf("got %+v", se)
	}
	if got := (&Error{Col: 7, Msg: "x"}).Error(); got != "selector:1:7: x" {
		t.Errorf("Error() = %q", got)
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse(":hover")
}

func TestStringers(t *testing.T) {
	if got := fmt.Sprint(Descendant, Child, NextSibling, SubsequentSibling); got != "  > + ~" {
		t.Errorf("combinators: %q", got)
	}
	if OpGe.String() != ">=" || OpExists.String() != "" || Op(99).String() != "?" {
		t.Error("Op.String")
	}
	if FlagI.String() != "i" || FlagS.String() != "s" || FlagNone.String() != "" {
		t.Error("Flag.String")
	}
	cx := MustParse(":has(> .a .b)").Selectors[0].Compounds[0].Simples[0].(*Pseudo).List.Selectors[0]
	if got := cx.String(); got != "> .a .b" {
		t.Errorf("relative Complex.String = %q", got)
	}
	cp := MustParse(".x > *.a[b]").Selectors[0].Compounds[1]
	if got := cp.String(); got != "*.a[b]" {
		t.Errorf("Compound.String = %q", got)
	}
	for _, s := range cp.Simples {
		if s.(fmt.Stringer).String() == "" {
			t.Errorf("%T prints empty", s)
		}
	}
	// A hand-built empty compound prints as "*" so the output still parses.
	if got := (&Compound{}).String(); got != "*" {
		t.Errorf("empty compound = %q", got)
	}
	if got := (&Nth{A: -3, B: -2}).String(); got != "-3n-2" {
		t.Errorf("Nth = %q", got)
	}
}
