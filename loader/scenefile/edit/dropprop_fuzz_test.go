package edit

import (
	"slices"
	"testing"
)

// FuzzDropPairs: taking a property's pairs out of an attribute string
// leaves a string that splits into the other pairs, in order, with their
// keys and values as they were.
func FuzzDropPairs(f *testing.F) {
	for _, s := range []string{"hp: 5; max: 9", "max:9;hp:5", "hp: 1; hp: 2; max: 3", "max: 9; hp: 5; regen: 1;", " hp : 5 ;; max: url(a;b) ", "hp: 5"} {
		f.Add(s)
	}
	sch := Schema{Props: []string{"hp", "max", "regen"}}
	f.Fuzz(func(t *testing.T, text string) {
		pairs, err := splitAttrPairs(text)
		if err != nil {
			return
		}
		type kv struct{ k, v string }
		var want []kv
		for _, p := range pairs {
			if p.key != "hp" {
				want = append(want, kv{p.key, text[p.valStart:p.valEnd]})
			}
		}
		ops, err := dropPairOps(text, sch, 0)
		if err != nil {
			t.Fatal(err)
		}
		out := applyText(text, ops)
		after, err := splitAttrPairs(out)
		if err != nil {
			t.Fatalf("%q -> %q does not split: %v", text, out, err)
		}
		var got []kv
		for _, p := range after {
			got = append(got, kv{p.key, out[p.valStart:p.valEnd]})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q -> %q: pairs %v, want %v", text, out, got, want)
		}
	})
}
