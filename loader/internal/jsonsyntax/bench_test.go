package jsonsyntax

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// BenchmarkParse compares the parser with encoding/json on a generated
// 10,000-entity dump, on the same input in the same run: Parse builds a
// tree with a position on every node, encoding/json's Unmarshal into an
// any builds one without. It reports each one's time and throughput and
// their ratio (speedup: encoding/json's time over Parse's).
func BenchmarkParse(b *testing.B) {
	data := scenegen.JSONDump(10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var fast, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := Parse(data, nil); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		fast += t1.Sub(t0)
		ref += time.Since(t1)
	}
	scenegen.ReportVersus(b, len(data), fast, ref, "encodingjson")
}
