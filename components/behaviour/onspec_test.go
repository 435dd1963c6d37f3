package behaviour

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scenecs/scenecs/registry"
	"github.com/scenecs/scenecs/registry/schema"
)

// onSyntaxCases are attribute strings of on: those that parse, with
// their items printed (kind name {expr}), and those that do not, with
// the offending text's offset and a part of the message. They are the
// edge cases of the separators: ';' and ',' inside strings, brackets and
// comments; ':' in conditions.
var onSyntaxCases = []struct {
	text  string
	items string // "" for an error
	at    int
	msg   string
}{
	{text: "event: hit; destroy", items: "event hit|destroy"},
	{text: "event: hit; if: a ? b : c; destroy", items: "event hit|if {a ? b : c}|destroy"},
	{text: `event: hit; set: label.text = "a;b", color = '#f00'`, items: `event hit|set label.text {"a;b"}|set color {'#f00'}`},
	{text: "event: hit; set: x.y = max(1, 2), z = [1, 2][0]", items: "event hit|set x.y {max(1, 2)}|set z {[1, 2][0]}"},
	{text: "event: hit; if: (let d = detail.damage; d > 3); destroy", items: "event hit|if {(let d = detail.damage; d > 3)}|destroy"},
	{text: "event: hit; if: /* ; , */ true; destroy", items: "event hit|if {/* ; , */ true}|destroy"},
	{text: "event: hit; if: `raw;` == 'x\\';'; destroy", items: "event hit|if {`raw;` == 'x\\';'}|destroy"},
	{text: "event: hit, hurt; destroy", items: "event hit|event hurt|destroy"},
	{text: "destroy", items: "destroy"},
	{text: " ;; event: hit ;; destroy; ", items: "event hit|destroy"},
	{text: "event: hit; emit: ping with {a: 1, b: [1, 2]}, pong", items: "event hit|emit ping {{a: 1, b: [1, 2]}}|emit pong"},
	{text: "event: hit; spawn: rock at vec3(1, 2, 3), rock", items: "event hit|spawn rock {vec3(1, 2, 3)}|spawn rock"},
	{text: "event: hit; target: self; destroy", items: "event hit|target self|destroy"},
	{text: `event: hit; target: [label="x;y"], .b; destroy`, items: `event hit|target [label="x;y"], .b|destroy`},
	{text: "event: hit; from: :not(.a), .b; add: enemy, alive", items: "event hit|from :not(.a), .b|add enemy|add alive"},
	{text: "event: hit; start: animation__open; pause: timer; resume: timer; restart: animation; stop: timer__x", items: "event hit|start animation__open|pause timer|resume timer|restart animation|stop timer__x"},
	{text: "event: animationcomplete__open; remove: on__x", items: "event animationcomplete__open|remove on__x"},

	{text: "event: hit; if: a // b; destroy", at: 18, msg: `no "//" comment here`},
	{text: `event: hit; if: "x; destroy`, at: 16, msg: `the string's closing "`},
	{text: "event: hit; if: a); destroy", at: 17, msg: "it closes nothing"},
	{text: "event: hit; if: (a]; destroy", at: 18, msg: "it closes nothing"},
	{text: "event: hit; if: /* x; destroy", at: 16, msg: `"*/" to close the comment`},
	{text: "event: hit; set: a = f(1, 2; destroy", at: 22, msg: `")" to close "("`},
	{text: "event: hit; event: hurt; destroy", at: 12, msg: "one event clause"},
	{text: "event: hit; if: a; if: b; destroy", at: 19, msg: "one if clause"},
	{text: "event: hit", at: 0, msg: "an action after it"},
	{text: "evnt: hit; destroy", at: 0, msg: `(did you mean "event"?)`},
	{text: "event: hit; explode", at: 12, msg: `a clause "KEY: VALUE"`},
	{text: "event: hit; set: health.hp == 3", at: 17, msg: "PATH = EXPRESSION"},
	{text: "event: hit; set: = 3", at: 17, msg: "PATH = EXPRESSION"},
	{text: "event: hit; set: a =  ", at: 19, msg: "an expression after ="},
	{text: "event: hit; set: a = 1,", at: 17, msg: "none empty"},
	{text: "event: hit; emit: ping pong", at: 23, msg: `"with EXPRESSION"`},
	{text: "event: hit; emit: ping within", at: 23, msg: `"with EXPRESSION"`},
	{text: "event: hi t; destroy", at: 7, msg: "an event name"},
	{text: "event: ; destroy", at: 6, msg: "none empty"},
	{text: "event: hit; destroy: now", at: 21, msg: "nothing after destroy"},
	{text: "event: hit; target: a >> b; destroy", at: 20, msg: "a selector"},
	{text: "event: hit; from: ; destroy", at: 17, msg: "a selector"},
	{text: "event: hit; if: ; destroy", at: 15, msg: "a condition"},
	{text: "event: hit; add: pos.x", at: 17, msg: "a component's name"},
	{text: "event: hit; start: animation.dur", at: 19, msg: "animation or timer"},
	{text: "event: hit; spawn: rock at", at: 24, msg: `"at EXPRESSION"`},
}

// itemsString prints the items of a spec as the cases write them.
func itemsString(s OnSpec) string {
	var parts []string
	for _, it := range s.items {
		p := onKeywords[it.kind]
		if it.name != "" {
			p += " " + it.name
		}
		if it.expr != "" {
			p += " {" + it.expr + "}"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, "|")
}

// TestOnSyntax: the clauses of on as the attribute string gives them,
// the separators inside expressions left alone, and the errors at the
// offending text.
func TestOnSyntax(t *testing.T) {
	typ := onType()
	for _, tc := range onSyntaxCases {
		v, err := typ.Parse(tc.text, OnSpec{})
		if tc.items != "" {
			if err != nil {
				t.Errorf("%q: %v", tc.text, err)
				continue
			}
			if got := itemsString(v.(OnSpec)); got != tc.items {
				t.Errorf("%q:\n got %s\nwant %s", tc.text, got, tc.items)
			}
			back, err := typ.Parse(typ.Print(v), OnSpec{})
			if err != nil || !typ.Equal(v, back) || itemsString(back.(OnSpec)) != tc.items {
				t.Errorf("%q printed as %q reads back as %v, %v", tc.text, typ.Print(v), back, err)
			}
			continue
		}
		var ve *registry.ValueError
		if !errors.As(err, &ve) || ve.Offset != tc.at || !strings.Contains(ve.Error(), tc.msg) {
			t.Errorf("%q: error %v (offset %d)\nwant at %d: %s", tc.text, err, offsetOf(err), tc.at, tc.msg)
		}
	}
}

func offsetOf(err error) int {
	var ve *registry.ValueError
	if errors.As(err, &ve) {
		return ve.Offset
	}
	return -1
}

// TestOnMapping: the mapping form reads the same handler as the
// attribute string; its errors name the pair and the offset in its key
// or value.
func TestOnMapping(t *testing.T) {
	typ := onType()
	v, err := typ.ParseMap([][2]string{{"event", " hit"}, {"if", "a ? b : c "}, {" set ", "x.y = 1, color = 'a;b'"}, {"destroy", ""}}, OnSpec{})
	if err != nil {
		t.Fatal(err)
	}
	want := "event hit|if {a ? b : c}|set x.y {1}|set color {'a;b'}|destroy"
	if got := itemsString(v.(OnSpec)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := typ.Print(v); got != "event: hit; if: a ? b : c; set: x.y = 1, color = 'a;b'; destroy: " {
		t.Errorf("printed %q", got)
	}
	for _, tc := range []struct {
		kv     [][2]string
		pair   int
		at     int
		inKey  bool
		prop   string
		substr string
	}{
		{[][2]string{{"event", "hit"}, {"set", "a = 1; b = 2"}}, 1, 5, false, "set", `no ";" here`},
		{[][2]string{{"event", "hit"}, {"  sett", "a = 1"}}, 1, 2, true, "sett", `(did you mean "set"?)`},
		{[][2]string{{"event", "hit"}, {"if", " (a"}, {"destroy", ""}}, 1, 1, false, "if", `")" to close`},
		{[][2]string{{"event", "hit"}, {"emit", "a, , b"}}, 1, 0, false, "emit", "none empty"},
		{[][2]string{{"a b", "hit"}}, 0, 0, true, "a b", "a name"},
	} {
		_, err := typ.ParseMap(tc.kv, OnSpec{})
		var ae *registry.AttrError
		if !errors.As(err, &ae) || ae.Pair != tc.pair || ae.Offset != tc.at || (ae.Kind == schema.UnknownProperty) != tc.inKey ||
			ae.Property != tc.prop || !strings.Contains(ae.Error(), tc.substr) {
			t.Errorf("%v: %v (%+v)\nwant pair %d at %d, in key %v, property %q: %s", tc.kv, err, ae, tc.pair, tc.at, tc.inKey, tc.prop, tc.substr)
		}
	}
}

// TestBindSyntax: bindings "path: expression", the expression free to
// hold ':' and ';' where they end nothing.
func TestBindSyntax(t *testing.T) {
	typ := bindType()
	for _, tc := range []struct {
		text, want string // want: path {expr}|...; or "!offset substring" for an error
	}{
		{"position.y: sin(time * 2) * 3", "position.y {sin(time * 2) * 3}"},
		{"position.y: a ? 1 : 2; color: 'x;y'; label.text: \"a: b\"", "position.y {a ? 1 : 2}|color {'x;y'}|label.text {\"a: b\"}"},
		{"visible: (let t = time; t > 1)", "visible {(let t = time; t > 1)}"},
		{" ; a.b : 1 ;", "a.b {1}"},
		{"position.y", "!0 a binding PATH: EXPRESSION"},
		{"position.y: ", "!11 an expression after position.y:"},
		{"a: 1; a: 2", "!9 bound twice"},
		{"a: (1; b: 2", "!3 \")\" to close"},
		{"a: 1 // no", "!5 no \"//\""},
	} {
		v, err := typ.Parse(tc.text, BindSpec{})
		if strings.HasPrefix(tc.want, "!") {
			var at int
			var msg string
			fmt.Sscanf(tc.want, "!%d", &at)
			msg = tc.want[strings.IndexByte(tc.want, ' ')+1:]
			if offsetOf(err) != at || err == nil || !strings.Contains(err.Error(), msg) {
				t.Errorf("%q: %v at %d, want at %d: %s", tc.text, err, offsetOf(err), at, msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.text, err)
			continue
		}
		var parts []string
		for _, it := range v.(BindSpec).items {
			parts = append(parts, it.path+" {"+it.expr+"}")
		}
		if got := strings.Join(parts, "|"); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.text, got, tc.want)
		}
		if back, err := typ.Parse(typ.Print(v), BindSpec{}); err != nil || !typ.Equal(v, back) {
			t.Errorf("%q does not read back: %v %v", tc.text, back, err)
		}
	}
}
