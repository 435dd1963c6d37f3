package yamlsyntax

import (
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// BenchmarkFastPath measures why Parse is hand-written: it parses a
// generated 10,000-entity scene into a tree with Parse and with yaml.v3
// (into a yaml.Node, the cheapest tree yaml.v3 builds), on the same input
// in the same run, and reports each one's time and throughput and their
// ratio (speedup: yaml.v3's time over Parse's).
func BenchmarkFastPath(b *testing.B) {
	data := scenegen.LoadScene("yaml", 10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var fast, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, res := Parse(data, nil); res.State != OK {
			b.Fatalf("Parse: state %d %s", res.State, res.ErrMsg)
		}
		t1 := time.Now()
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			b.Fatal(err)
		}
		fast += t1.Sub(t0)
		ref += time.Since(t1)
	}
	scenegen.ReportVersus(b, len(data), fast, ref, "yamlv3")
}
