package quote

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestShort: text of at most Max bytes is quoted (or shown) whole.
func TestShort(t *testing.T) {
	for _, s := range []string{"", "abc", "a \"b\"\n", strings.Repeat("é", Max/2)} {
		if got := String(s); got != strconv.Quote(s) {
			t.Errorf("String(%q) = %s", s, got)
		}
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %s", s, got)
		}
	}
}

// TestHuge: a 100 MB value gives a short quote that starts as the value
// does and says its length.
func TestHuge(t *testing.T) {
	s := strings.Repeat("x", 100_000_369)
	want := `"` + strings.Repeat("x", Max) + `…" (100000369 bytes)`
	if got := String(s); got != want {
		t.Errorf("String: %.300s (%d bytes), want %s", got, len(got), want)
	}
	if got := Text(s); got != strings.Repeat("x", Max)+"… (100000369 bytes)" {
		t.Errorf("Text: %.300s (%d bytes)", got, len(got))
	}
}

// TestCuts: a long text is cut at a character boundary, and text that
// escapes to more bytes (control characters, invalid UTF-8) is cut
// shorter, so that the quote stays about Max bytes.
func TestCuts(t *testing.T) {
	cases := []string{
		strings.Repeat("é", Max),           // 2 bytes a character, Max is even: cut between two
		"x" + strings.Repeat("é", Max),     // the cut falls inside a character
		strings.Repeat("\x00", 10*Max),     // \x00: 4 bytes quoted
		strings.Repeat("\xff\xfe", 10*Max), // invalid UTF-8
	}
	for _, s := range cases {
		got := String(s)
		if !utf8.ValidString(got) || len(got) > Max+40 || !strings.HasSuffix(got, "…\" ("+strconv.Itoa(len(s))+" bytes)") {
			t.Errorf("String(%.20q...): %s (%d bytes)", s, got, len(got))
		}
		unq, err := strconv.Unquote(got[:strings.LastIndex(got, "…")] + `"`)
		if err != nil || !strings.HasPrefix(s, unq) || unq == "" {
			t.Errorf("String(%.20q...): %s does not quote a start of the text (%v)", s, got, err)
		}
		if txt := Text(s); !strings.HasPrefix(s, strings.TrimSuffix(txt, "… ("+strconv.Itoa(len(s))+" bytes)")) || len(txt) > Max+30 {
			t.Errorf("Text(%.20q...): %.300q", s, txt)
		}
	}
}

// TestArgs: a message formatted from Args quotes long strings briefly,
// and short ones and other values as fmt does; the caller's arguments
// are left as they were.
func TestArgs(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	args := []any{huge, "short", 7, huge}
	got := fmt.Sprintf("unknown component %q (%s) at %d: %v", Args(args)...)
	want := "unknown component " + String(huge) + ` ("short") at 7: ` + Text(huge)
	want = strings.Replace(want, `("short")`, "(short)", 1)
	if got != want || len(got) > 3*Max {
		t.Errorf("%.600s (%d bytes)\nwant %s", got, len(got), want)
	}
	if args[0] != huge || args[3] != huge {
		t.Error("Args changed its argument")
	}
	short := []any{"a", 1}
	if out := Args(short); &out[0] != &short[0] {
		t.Error("Args copied arguments it had nothing to change in")
	}
	if out := Args(nil); out != nil {
		t.Errorf("Args(nil) = %v", out)
	}
}
