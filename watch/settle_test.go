package watch

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// slowDebounce is a Debounce no test waits for when a save looks whole:
// a change reported before half of it was judged early, after Settle.
const slowDebounce = 2 * time.Second

// expectSoon is expect, and checks that the change came before half of
// slowDebounce since start, with content want.
func (env *watchEnv) expectSoon(start time.Time, name, want string) {
	env.t.Helper()
	env.expect(name)
	if d := time.Since(start); d >= slowDebounce/2 {
		env.t.Errorf("save reported after %v: not before the debounce (%v)", d, slowDebounce)
	}
	if got := string(env.w.Snapshot()[env.path(name)]); got != want {
		env.t.Errorf("content judged %q, want %q", got, want)
	}
}

// expectQuiet checks that nothing was reported so far.
func (env *watchEnv) expectQuiet(why string) {
	env.t.Helper()
	select {
	case got := <-env.w.Changes:
		env.t.Fatalf("change %v %s (content %q)", got, why, env.w.Snapshot()[got[0]])
	case err := <-env.w.Errors:
		env.t.Fatalf("error %v %s", err, why)
	default:
	}
}

// TestWatchSettlesWholeSaves: a save that looks whole is reported once
// the file has been quiet for Settle, long before Debounce, whether it is
// written in place, truncated and written, or written to a temporary file
// (in two chunks, which are not the watched file) renamed over it.
func TestWatchSettlesWholeSaves(t *testing.T) {
	env := newWatchEnv(t, Options{Debounce: slowDebounce}, twoFiles())
	start := time.Now()
	env.write("scene.yaml", scene2)
	env.expectSoon(start, "scene.yaml", scene2)

	start = time.Now()
	tmp := env.path(".scene.yaml.swp")
	f, err := os.Create(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(scene1[:10]); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, err := f.WriteString(scene1[10:]); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, env.path("scene.yaml")); err != nil {
		t.Fatal(err)
	}
	env.expectSoon(start, "scene.yaml", scene1)
	env.expectNothingThen("other.yaml")
}

// writeInTwo saves the file name in place as an editor on a slow disk
// might: truncated, first written up to cut, then, after pause, the rest.
// It checks that nothing was reported during the pause.
func (env *watchEnv) writeInTwo(name, text string, cut int, pause time.Duration) {
	env.t.Helper()
	f, err := os.OpenFile(env.path(name), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		env.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text[:cut]); err != nil {
		env.t.Fatal(err)
	}
	time.Sleep(pause)
	env.expectQuiet("while half written")
	if _, err := f.WriteString(text[cut:]); err != nil {
		env.t.Fatal(err)
	}
}

// TestWatchHalfWrittenWaits: a save written in two chunks with a pause
// longer than Settle between them is not reported half written, but once
// whole, soon after its second chunk: cut in a line (it does not end as
// the last save did), cut at the end of a line in its first half (it is
// much shorter), or cut at the end of a line near its end where only
// Complete (here: valid JSON) tells it is not whole.
func TestWatchHalfWrittenWaits(t *testing.T) {
	var long strings.Builder
	long.WriteString("entities:\n")
	for i := range 20 {
		long.WriteString("  - id: e" + strings.Repeat("x", i) + "\n")
	}
	jsonScene := "{\"entities\": [\n" + strings.Repeat("  {\"id\": \"a\"},\n", 20) + "  {\"id\": \"z\"}\n]}\n"
	yamlScene := long.String()
	for _, c := range []struct {
		name, file, before, text string
		cut                      int
	}{
		{"in a line", "scene.yaml", yamlScene + "# before\n", yamlScene, len(yamlScene) - 5},
		{"first half", "scene.yaml", yamlScene + "# before\n", yamlScene, strings.Index(yamlScene, "exxxxxxxxx\n") + 11},
		{"not complete", "scene.json", strings.Replace(jsonScene, "z", "y", 1), jsonScene, strings.LastIndex(jsonScene, "  {")},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := twoFiles()
			files[c.file] = c.before
			valid := func(path string, data []byte) bool {
				return !strings.HasSuffix(path, ".json") || json.Valid(data)
			}
			env := newWatchEnv(t, Options{Debounce: slowDebounce, Complete: valid}, files)
			start := time.Now()
			env.writeInTwo(c.file, c.text, c.cut, 100*time.Millisecond)
			env.expectSoon(start, c.file, c.text)
			env.expectNothingThen("other.yaml")
		})
	}
}

// TestWatchBrokenSaveReportedOnce: a save that never looks whole (cut in
// a line, or refused by Complete) is still a save: it is reported once
// the file has been quiet for Debounce, and only once.
func TestWatchBrokenSaveReportedOnce(t *testing.T) {
	const debounce = 100 * time.Millisecond
	refuse := func(_ string, data []byte) bool { return !strings.Contains(string(data), "broken") }
	for _, text := range []string{
		"entities:\n  - id: [a\n  - id: b",     // ends in a line
		"entities:\n  - {id: [broken, x: 1}\n", // refused by Complete only
	} {
		env := newWatchEnv(t, Options{Debounce: debounce, Complete: refuse}, twoFiles())
		start := time.Now()
		env.write("scene.yaml", text)
		env.expect("scene.yaml")
		if d := time.Since(start); d < debounce {
			t.Errorf("%q reported after %v, before the debounce (%v)", text, d, debounce)
		}
		if got := string(env.w.Snapshot()[env.path("scene.yaml")]); got != text {
			t.Errorf("content judged %q, want %q", got, text)
		}
		env.expectNothingThen("other.yaml")
	}
}

// TestWatchBurstEndsWithLast: a burst of 20 whole saves a few
// milliseconds apart (longer than Settle, so some are reported on their
// own) ends with the last save's content judged and reported, and
// nothing after it.
func TestWatchBurstEndsWithLast(t *testing.T) {
	env := newWatchEnv(t, Options{}, twoFiles())
	var last string
	for i := range 20 {
		last = strings.Repeat("#", i) + "\n" + scene2
		env.write("scene.yaml", last)
		time.Sleep(time.Duration(i%4) * 3 * time.Millisecond)
	}
	deadline := time.After(watchTimeout)
	for string(env.w.Snapshot()[env.path("scene.yaml")]) != last {
		select {
		case <-env.w.Changes:
		case err := <-env.w.Errors:
			t.Fatal(err)
		case <-deadline:
			t.Fatalf("last save not judged: %q", env.w.Snapshot()[env.path("scene.yaml")])
		}
	}
	// Its change may still be on its way: at most one more, naming the
	// file, before the sentinel.
	env.write("other.yaml", "entities: [] # sentinel\n")
	for {
		select {
		case got := <-env.w.Changes:
			if len(got) == 1 && got[0] == env.path("other.yaml") {
				return
			}
			for _, f := range got {
				if f != env.path("scene.yaml") && f != env.path("other.yaml") {
					t.Fatalf("change %v", got)
				}
			}
			if string(env.w.Snapshot()[env.path("scene.yaml")]) != last {
				t.Fatalf("judged after the last save: %q", env.w.Snapshot()[env.path("scene.yaml")])
			}
		case <-deadline:
			t.Fatal("sentinel not reported")
		}
	}
}

// TestLooksWhole: the rules a save's content must pass to be judged
// early.
func TestLooksWhole(t *testing.T) {
	for _, c := range []struct {
		old, data string
		want      bool
	}{
		{"", "anything", true},
		{"a: 1\n", "a: 2\n", true},
		{"a: 1\n", "a: 2", false},                     // cut in a line
		{"a: 1", "a: 22", true},                       // the file ends so
		{"a: 1\nb: 2\nc: 3\nd: 4\n", "a: 1\n", false}, // much shorter
		{"a: 1\nb: 2\nc: 3\nd: 4\n", "a: 1\nb: 2\nc: 3\n", true},
	} {
		if got := looksWhole([]byte(c.old), []byte(c.data)); got != c.want {
			t.Errorf("looksWhole(%q, %q) = %v, want %v", c.old, c.data, got, c.want)
		}
	}
}
