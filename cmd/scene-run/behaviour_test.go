package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tweenScene tweens a number from 0 to 10 over 1000 ms, linearly.
const tweenScene = `components:
  score: {type: number, default: 0}
entities:
  - id: counter
    animation: "property: score; from: 0; to: 10; dur: 1000; easing: linear"
`

// TestQueryTween: a 1000 ms linear tween of a number from 0 to 10 reads
// 5 after 30 ticks at 60 Hz (scene time), 10 after 60; at 30 Hz, 15
// ticks make the same half.
func TestQueryTween(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tween.yaml")
	if err := os.WriteFile(file, []byte(tweenScene), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want float64
	}{
		{[]string{"-ticks", "30"}, 5},
		{[]string{"-ticks", "60"}, 10},
		{[]string{"-ticks", "15", "-hz", "30"}, 5},
		{[]string{"-ticks", "0"}, 0},
	} {
		var out, errb bytes.Buffer
		args := append(append([]string{"query", "-json"}, tc.args...), file, "#counter")
		if code := run(context.Background(), args, &out, &errb); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var got []struct {
			Components struct {
				Score float64 `json:"score"`
			} `json:"components"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 1 {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		if got[0].Components.Score != tc.want {
			t.Errorf("%v: score %v, want exactly %v", tc.args, got[0].Components.Score, tc.want)
		}
	}
	// The selector sees the value too.
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"query", "-ticks", "30", file, "[score=5]"}, &out, &errb); code != exitOK || out.String() != "counter\n" {
		t.Errorf("query [score=5]: exit %d, %q %s", code, out.String(), errb.String())
	}
}

// TestValidateBehaviour: a bad property path is a scene error at
// file:line:col, inside the attribute string.
func TestValidateBehaviour(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.yaml")
	text := strings.Replace(tweenScene, "property: score;", "property: scor;", 1)
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"validate", file}, &out, &errb)
	want := file + `:5:27: animation: property "property": invalid value "scor": expected the name of a component (did you mean "score"?)`
	if code != exitScene || !strings.Contains(errb.String(), want) {
		t.Errorf("exit %d: %s\nwant %s", code, errb.String(), want)
	}
}

// handlerScene has a target hit from outside and a door opened by an
// event.
const handlerScene = `components:
  health: {hp: {type: int, default: 10}}
entities:
  - id: target
    class: rock
    health: {hp: 10}
    on: "event: hit; if: detail.damage > 3; set: health.hp = health.hp - detail.damage"
  - id: door
    position: 0 0 0
    on__open: "set: position.y = 3"
    bind: "position.x: time"
`

// TestEmitFlag: -emit events reach the entities its selector matches at
// its tick, with its detail, in query, dump and run; bad -emit values
// are usage errors saying what is wrong.
func TestEmitFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.yaml")
	if err := os.WriteFile(file, []byte(handlerScene), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, &out, &errb); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	out := runOK("query", "-ticks", "30", "-emit", `.rock:hit@10={"damage": 4}`, "-emit", `#target:hit@20={"damage": 2}`,
		"-emit", "#door:open@30", file, "[health.hp=6], [position.y=3][position.x=0.5]")
	if out != "target\ndoor\n" {
		t.Errorf("query: %q, want target (hit of 4, not 2) and door (opened after tick 30, at x 0.5)", out)
	}
	out = runOK("query", "-emit", "#door:open@0", file, "[position.y=3]")
	if out != "door\n" {
		t.Errorf("@0 with no ticks: %q", out)
	}
	out = runOK("dump", "-format", "json", "-ticks", "3", "-emit", `[health]:hit@1={"damage": 9}`, file)
	if !strings.Contains(out, `"health":{"hp":1}`) {
		t.Errorf("dump after a hit of 9 lacks hp 1:\n%s", out)
	}
	out = runOK("run", "-ticks", "10", "-emit", `#target:hit@5={"damage": 5}`, "-emit", `#target:hit@10={"damage": 4}`, "-query", "[health.hp=1]", file)
	if !strings.Contains(out, "query     [health.hp=1]: 1 match") {
		t.Errorf("run: the hits at ticks 5 and 10 (the last) did not both land:\n%s", out)
	}
	var errb bytes.Buffer
	run(context.Background(), []string{"query", "-emit", "#nobody:hit@0", file, "*"}, io.Discard, &errb)
	if !strings.Contains(errb.String(), "tick 0: -emit #nobody:hit@0: no entity matches #nobody") {
		t.Errorf("no match is not reported: %s", errb.String())
	}
	for _, tc := range []struct{ arg, msg string }{
		{"#a:hit", `no @TICK: want SELECTOR:EVENT@TICK`},
		{"#a@3", `no :EVENT before @3`},
		{":hit@3", `no SELECTOR before :hit`},
		{"#a:hi t@3", `event "hi t": want a name`},
		{"#a:hit@3=oops", `detail oops: not JSON`},
		{"a >> b:hit@3", `selector "a >> b"`},
		{"#a:hit@-1", `no @TICK`},
		{"[helth]:hit@1", `unknown component "helth"`},
		{"#target:hit@31", `tick 31 is after the last (-ticks 30)`},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"query", "-ticks", "30", "-emit", tc.arg, file, "*"}, &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), tc.msg) {
			t.Errorf("-emit %q: exit %d: %s\nwant %s", tc.arg, code, errb.String(), tc.msg)
		}
	}
}
