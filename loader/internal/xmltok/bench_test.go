package xmltok

import (
	"bytes"
	"encoding/xml"
	"io"
	"testing"
	"time"

	"github.com/scenecs/scenecs/loader/internal/scenegen"
)

// BenchmarkScanner measures why Scanner is hand-written: it reads every
// token of a generated 10,000-entity scene with Scanner and with
// encoding/xml's strict RawToken (which the loader would otherwise use),
// on the same input in the same run, and reports each one's time and
// throughput and their ratio (speedup: encoding/xml's time over
// Scanner's).
func BenchmarkScanner(b *testing.B) {
	data := scenegen.LoadScene("xml", 10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var fast, ref time.Duration
	for b.Loop() {
		t0 := time.Now()
		s := NewScanner(data, 0)
		n := 0
		for s.Next() {
			n++
		}
		if s.Err() != nil {
			b.Fatal(s.Err())
		}
		t1 := time.Now()
		d := xml.NewDecoder(bytes.NewReader(data))
		d.Strict = true
		m := 0
		for {
			_, err := d.RawToken()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			m++
		}
		fast += t1.Sub(t0)
		ref += time.Since(t1)
		if n != m {
			b.Fatalf("%d tokens, encoding/xml reads %d", n, m)
		}
	}
	scenegen.ReportVersus(b, len(data), fast, ref, "encodingxml")
}
