package main

import (
	"bytes"
	"context"
	"encoding/json"
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
