package schema

import (
	"encoding/json"
	"testing"
)

// The benchmarks parse one component per iteration, so allocs/op is
// allocations per component; ns/prop is the time per property given.

const benchAttr = "color: #4cc3d9; opacity: 0.75; src: url(data:image/png;base64,AAAA); side: double; repeat: 2 2; max-hp: 120"

// benchJSON is the same data as benchAttr in JSON, for the encoding/json
// peer benchmark.
const benchJSON = `{"Color":"#4cc3d9","Opacity":0.75,"Src":"url(data:image/png;base64,AAAA)","Side":"double","Repeat":{"X":2,"Y":2},"MaxHP":120}`

const benchProps = 6

func BenchmarkParseAttr(b *testing.B) {
	s := testSchema(b, testMaterial{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ParseAttr("material", benchAttr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchProps, "ns/prop")
}

func BenchmarkAppendAttrReuse(b *testing.B) {
	s := testSchema(b, testMaterial{})
	p := make(Patch, 0, benchProps)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if p, err = s.AppendAttr(p[:0], "material", benchAttr); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchProps, "ns/prop")
}

// BenchmarkJSONUnmarshalPeer decodes the same six values with encoding/json
// into a struct (colour left as text): a familiar peer for the ratio.
func BenchmarkJSONUnmarshalPeer(b *testing.B) {
	var v struct {
		Color   string
		Opacity float64
		Src     string
		Side    string
		Repeat  Vec2
		MaxHP   int
	}
	data := []byte(benchJSON)
	b.ReportAllocs()
	for b.Loop() {
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchProps, "ns/prop")
}

func BenchmarkParseAttrSingleVec3(b *testing.B) {
	type Position Vec3
	s := testSchema(b, Position{})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ParseAttr("position", "0.5 1.6 -5"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseAttrLargeSchema(b *testing.B) {
	var specs []PropSpec
	for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"} {
		specs = append(specs, PropSpec{Name: "prop-" + n, Type: "number"})
	}
	s, err := NewSchema(specs, NewTypes())
	if err != nil {
		b.Fatal(err)
	}
	text := "prop-p: 1; prop-h: 2; propA: 3; prop-k: 4"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.ParseAttr("big", text); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4, "ns/prop")
}

func BenchmarkPrintAttr(b *testing.B) {
	s := testSchema(b, testMaterial{})
	vals := s.Defaults()
	b.ReportAllocs()
	for b.Loop() {
		_ = s.PrintAttr(vals)
	}
}
