package scenefile

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzReadJSON(f *testing.F) {
	f.Add([]byte(`{"entities":[{"id":"a","path":"a","parent":null,"class":["x"],"components":{"position":{"x":1,"y":2,"z":3},"enemy":{}}},{"path":"a/0","parent":"a","class":[],"components":{"health":{"hp":5}}}]}`))
	f.Add([]byte(`{"scene":{"physics":"step: 0.02"},"components":{"hp":{"type":"int","default":"3"}},"entities":[]}`))
	for _, s := range []string{"", "{", "[]", `{"entities":{}}`, `{"entities":[{"parent":"nope"}]}`, `{"x":1}`} {
		f.Add([]byte(s))
	}
	// Dumps the loader wrote: a generated scene, one that keeps prefabs
	// (instances as prefab plus differences), and one of instances that
	// lost parts at run time ("parts": {"path": "removed"} on the
	// instance, in the prefabs' bodies too).
	for _, name := range []string{"load", "prefabs", "removed"} {
		f.Add(mustRead(f, "testdata/dumps/"+name+".json"))
	}
	f.Add([]byte(`{"prefabs":{"s":{"children":[{"id":"g"},{"prefab":"s2","parts":{"x":"removed","y":{}}}]},"s2":{"children":[{"id":"x"},{"id":"y"}]}},"entities":[{"id":"i","prefab":"s","parts":{"g":"removed","1/x":"gone","z":{}}},{"id":"i/1","parent":"i","depth":1,"prefab":"s2","part":"1","parts":{"y":"removed"}}]}`))
	// Arrays, read as lists: good ones, and items that are not scalars.
	f.Add([]byte(`{"scene":{"s":{"n":["a","b"]}},"components":{"t":{"type":"array","default":["a","b"]}},"prefabs":{"p":{"components":{"t":["x"]}}},"entities":[{"path":"0","parent":null,"class":[],"components":{"t":["a\u00e9",1,true],"bag":{"items":[]}}}]}`))
	f.Add([]byte(`{"entities":[{"path":"0","parent":null,"class":[],"components":{"t":[null,[1],{"a":2}]}}]}`))
	addHostileSeeds(f, "json")
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := ReadJSON("f.json", data, fuzzLimits)
		// The syntax is JSON's: what encoding/json finds invalid is an
		// error, and "invalid JSON" errors are for invalid JSON only
		// (apart from what the reader refuses on purpose: invalid UTF-8,
		// nesting beyond 1,000; and a byte order mark it accepts).
		deliberate := !utf8.Valid(data) || bytes.HasPrefix(data, []byte("\ufeff")) || bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 1000
		if !deliberate {
			syntax := err != nil && strings.Contains(err.Error(), "invalid JSON")
			if valid := json.Valid(data); valid == syntax || !valid && err == nil {
				t.Fatalf("encoding/json says valid=%v, ReadJSON says %v\n%q", valid, err, data)
			}
		}
		if err != nil {
			if _, ok := err.(ErrorList); !ok {
				t.Fatalf("error is not an ErrorList: %#v", err)
			}
			return
		}
		if doc == nil {
			t.Fatal("no document and no error")
		}
		checkLists(t, doc)
	})
}
