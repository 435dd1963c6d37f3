package expr

import (
	"math/rand/v2"
	"testing"
)

// FuzzDifferential compiles an arbitrary expression with both the
// closure compiler and expr's own pipeline and requires the same value,
// or a refusal from both. Its seeds are in testdata/fuzz/FuzzDifferential.
//
//	go test ./expr -run '^$' -fuzz FuzzDifferential -fuzztime 30s
func FuzzDifferential(f *testing.F) {
	opts := refOptions()
	f.Fuzz(func(t *testing.T, src string) {
		checkSame(t, src, opts)
	})
}

// FuzzGenerated builds mostly well-typed expressions from the fuzzer's
// bytes (see gen) and compares them likewise: random source text is
// mostly refused by both sides, generated text mostly compiles.
//
//	go test ./expr -run '^$' -fuzz FuzzGenerated -fuzztime 30s
func FuzzGenerated(f *testing.F) {
	opts := refOptions()
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &gen{data: data}
		checkSame(t, g.expr(genKinds[g.n(len(genKinds))], 5), opts)
	})
}

// TestGeneratedDifferential runs the generator on a fixed sequence of
// pseudo-random inputs, so that every `go test` compares a few thousand
// expressions.
func TestGeneratedDifferential(t *testing.T) {
	opts := refOptions()
	r := rand.New(rand.NewPCG(23, 1))
	n := 3000
	if testing.Short() {
		n = 300
	}
	outcomes := map[string]int{}
	batched := 0
	for range n {
		data := make([]byte, 64)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		g := &gen{data: data}
		src := g.expr(genKinds[g.n(len(genKinds))], 5)
		outcomes[checkSame(t, src, opts)]++
		if p, err := Compile(src, diffResolver(), Any); err == nil && p.Batch() != nil && !p.Const() {
			batched++
		}
	}
	t.Logf("%d expressions: %v; %d not constant with a batch form", n, outcomes, batched)
	// Batches are compared on the expressions that have one (checkSame).
	if batched < n/100 {
		t.Errorf("only %d of %d expressions have a batch form that is not constant", batched, n)
	}
	// The comparison is only worth something if most expressions compile
	// and run as closures.
	if outcomes[outSame] < n/3 {
		t.Errorf("only %d of %d expressions gave a value as closures: %v", outcomes[outSame], n, outcomes)
	}
}
