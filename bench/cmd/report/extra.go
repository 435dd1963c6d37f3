package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// extraLine matches any "BenchmarkName-P  iters  v unit  v unit ..." line.
var extraLine = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

type extraKey struct{ name, unit string }

// extraSection renders the main module's own benchmarks (each compared
// with a hand-written loop measured in the same run): the median of every
// metric per benchmark, and for a benchmark X/hand, the ratio of every
// sibling X/other to it.
func extraSection(r io.Reader) (string, error) {
	samples := map[extraKey][]float64{}
	var keys []extraKey
	pkg := ""
	pkgOf := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = p
			continue
		}
		m := extraLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			k := extraKey{m[1], f[i+1]}
			if _, ok := samples[k]; !ok {
				keys = append(keys, k)
				pkgOf[m[1]] = pkg
			}
			samples[k] = append(samples[k], v)
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	if len(keys) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("| package | benchmark | metric | median | runs | vs hand-written loop |\n|---|---|---|--:|--:|--:|\n")
	med := map[extraKey]float64{}
	for _, k := range keys {
		s := append([]float64(nil), samples[k]...)
		sort.Float64s(s)
		med[k] = median(s)
	}
	custom := map[string]bool{} // benchmarks that report their own metrics
	for _, k := range keys {
		if k.unit != "ns/op" && k.unit != "B/op" && k.unit != "allocs/op" {
			custom[k.name] = true
		}
	}
	for _, k := range keys {
		if k.unit == "B/op" || k.unit == "allocs/op" || k.unit == "ns/op" && custom[k.name] {
			continue
		}
		ratio := ""
		if i := strings.LastIndexByte(k.name, '/'); i > 0 && !strings.HasSuffix(k.name, "/hand") && strings.Contains(k.unit, "ns/") {
			if h, ok := med[extraKey{k.name[:i] + "/hand", k.unit}]; ok && h > 0 {
				ratio = fmt.Sprintf("%.2f", med[k]/h)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s |\n", strings.TrimPrefix(pkgOf[k.name], "github.com/scenecs/scenecs/"), k.name, k.unit, fmtFloat(med[k]), len(samples[k]), ratio)
	}
	return b.String(), nil
}

func fmtFloat(v float64) string {
	switch {
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 3, 64)
}
