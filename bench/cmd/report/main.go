// Command report reads `go test -bench` output of the bench module and
// prints one table of medians per workload and library: scenecs, ark,
// their ratio and whether scenecs meets its target. With -md it also
// writes the table, the machine, the Go version, the date and the command
// as Markdown.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// target is what scenecs must reach for one workload: a ratio
// scenecs/ark at most maxRatio, or (for Overhead) an absolute value at
// most maxValue. A workload with neither is an extra, shown without a
// target.
type target struct {
	maxRatio float64
	maxValue float64
}

var targets = map[string]target{
	"QueryEntity": {maxRatio: 1.0},
	"QueryColumn": {maxRatio: 1.1},
	"Create":      {maxRatio: 1.0},
	"CreateBatch": {maxRatio: 1.2},
	"AddRemove":   {maxRatio: 1.0},
	"Destroy":     {maxRatio: 1.2},
	"RandomGet":   {maxRatio: 1.2},
	"Overhead":    {maxValue: 16},
}

// order is the order of workloads in the table; others follow by name.
var order = []string{
	"QueryEntity", "QueryColumn", "Create", "CreateBatch", "AddRemove",
	"AddRemoveBatch", "Destroy", "DestroyBatch", "RandomGet", "Overhead", "OverheadChurn",
}

const (
	libA = "scenecs"
	libB = "ark"
)

// benchLine matches "BenchmarkWorkload/lib/N-P  iters  v unit  v unit ...".
var benchLine = regexp.MustCompile(`^Benchmark([^/\s]+)/([^/\s]+)/([^\s]+?)(?:-\d+)?\s+\d+\s+(.*)$`)

type key struct{ workload, size string }

type row struct {
	key
	unit     string
	a, b     []float64 // samples of libA and libB
	medA     float64
	medB     float64
	ratio    float64
	hasRatio bool
}

func main() {
	in := flag.String("in", "", "go test -bench output to read (default stdin)")
	md := flag.String("md", "", "write the Markdown report to this file")
	cmd := flag.String("cmd", "", "the command that produced the output, for the report")
	goVersion := flag.String("go", "", "Go version line for the report (default: go version)")
	rev := flag.String("rev", "", "revision of the scenecs code measured, for the report")
	extra := flag.String("extra", "", "go test -bench output of the main module's own benchmarks, appended to the report")
	extraCmd := flag.String("extracmd", "", "the command that produced -extra")
	flag.Parse()

	var r io.Reader = os.Stdin
	if *in != "" {
		f, err := os.Open(*in)
		if err != nil {
			fatal(err)
		}
		defer f.Close()
		r = f
	}
	rows, cpuLine, err := parse(r)
	if err != nil {
		fatal(err)
	}
	if len(rows) == 0 {
		fatal(fmt.Errorf("no benchmark results found"))
	}
	table := render(rows)
	fmt.Print(table)
	if *md == "" {
		return
	}
	if *goVersion == "" {
		*goVersion = goVersionLine()
	}
	doc := markdown(rows, table, cpuLine, *goVersion, *rev, *cmd)
	if *extra != "" {
		f, err := os.Open(*extra)
		if err != nil {
			fatal(err)
		}
		sec, err := extraSection(f)
		f.Close()
		if err != nil {
			fatal(err)
		}
		doc += "\n## Main-module benchmarks\n\n" +
			"Benchmarks of the layers above the core, each against a hand-written loop over the same data measured in the same run " +
			"(the last column is the ratio to it). Medians of the runs shown.\n\n"
		if *extraCmd != "" {
			doc += "Command (from the repository root): `" + *extraCmd + "`\n\n"
		}
		doc += sec
	}
	doc += keptSections(*md)
	if err := os.WriteFile(*md, []byte(doc), 0o644); err != nil {
		fatal(err)
	}
}

// keepMarker starts the part of the report that is written by hand and
// kept as it is when the report is made again.
const keepMarker = "<!-- Written by hand below: kept by bench/cmd/report. -->"

// keptSections returns the hand-written end of the existing report at
// path (from keepMarker on), or "" if there is none.
func keptSections(path string) string {
	old, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	if i := strings.Index(string(old), keepMarker); i >= 0 {
		return "\n" + string(old[i:])
	}
	return ""
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "report:", err)
	os.Exit(1)
}

// parse collects the samples of every Workload/lib/N. The unit is the
// first custom metric ending in "/entity".
func parse(r io.Reader) ([]*row, string, error) {
	byKey := map[key]*row{}
	var keys []key
	cpu := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(line, "cpu: "); ok {
			cpu = c
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		k := key{m[1], m[3]}
		lib := m[2]
		fields := strings.Fields(m[4])
		for i := 0; i+1 < len(fields); i += 2 {
			unit := fields[i+1]
			if !strings.HasSuffix(unit, "/entity") {
				continue
			}
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return nil, "", fmt.Errorf("%q: %v", line, err)
			}
			rw := byKey[k]
			if rw == nil {
				rw = &row{key: k, unit: unit}
				byKey[k] = rw
				keys = append(keys, k)
			}
			switch lib {
			case libA:
				rw.a = append(rw.a, v)
			case libB:
				rw.b = append(rw.b, v)
			}
			break
		}
	}
	if err := sc.Err(); err != nil {
		return nil, "", err
	}
	rank := func(w string) int {
		if i := slices.Index(order, w); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		ri, rj := rank(keys[i].workload), rank(keys[j].workload)
		if ri != rj {
			return ri < rj
		}
		if keys[i].workload != keys[j].workload {
			return keys[i].workload < keys[j].workload
		}
		return sizeOf(keys[i].size) < sizeOf(keys[j].size)
	})
	rows := make([]*row, 0, len(keys))
	for _, k := range keys {
		rw := byKey[k]
		rw.medA, rw.medB = median(rw.a), median(rw.b)
		if len(rw.a) > 0 && len(rw.b) > 0 && rw.medB > 0 {
			rw.ratio, rw.hasRatio = rw.medA/rw.medB, true
		}
		rows = append(rows, rw)
	}
	return rows, cpu, nil
}

// sizeOf turns "1k", "100k", "1M" into a number for sorting.
func sizeOf(s string) float64 {
	mul := 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		mul, s = 1e3, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "M"):
		mul, s = 1e6, strings.TrimSuffix(s, "M")
	}
	v, _ := strconv.ParseFloat(s, 64)
	return v * mul
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// verdict returns the target text and whether it is met ("" if the
// workload has no target or lacks data).
func verdict(rw *row) (string, string) {
	t, ok := targets[rw.workload]
	switch {
	case !ok:
		return "extra", "–"
	case t.maxValue > 0:
		if len(rw.a) == 0 {
			return fmt.Sprintf("scenecs ≤ %g %s", t.maxValue, rw.unit), "no data"
		}
		return fmt.Sprintf("scenecs ≤ %g", t.maxValue), yesNo(rw.medA <= t.maxValue)
	default:
		if !rw.hasRatio {
			return fmt.Sprintf("ratio ≤ %.1f", t.maxRatio), "no data"
		}
		return fmt.Sprintf("ratio ≤ %.1f", t.maxRatio), yesNo(rw.ratio <= t.maxRatio+1e-9)
	}
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func num(v float64, n int) string {
	if n == 0 {
		return "–"
	}
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// render returns the Markdown table of medians (also readable as text).
func render(rows []*row) string {
	var b strings.Builder
	b.WriteString("| workload | unit | scenecs | ark | ratio scenecs/ark | target | met |\n")
	b.WriteString("|---|---|--:|--:|--:|---|---|\n")
	for _, rw := range rows {
		ratio := "–"
		if rw.hasRatio {
			ratio = fmt.Sprintf("%.2f", rw.ratio)
		}
		tgt, met := verdict(rw)
		fmt.Fprintf(&b, "| %s/%s | %s | %s | %s | %s | %s | %s |\n",
			rw.workload, rw.size, rw.unit, num(rw.medA, len(rw.a)), num(rw.medB, len(rw.b)), ratio, tgt, met)
	}
	return b.String()
}

func samples(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'g', 4, 64)
	}
	return strings.Join(parts, ", ")
}

func markdown(rows []*row, table, cpuLine, goVersion, rev, cmd string) string {
	model, cores := cpuInfo()
	if model == "" {
		model = cpuLine
	}
	runs := 0
	for _, rw := range rows {
		runs = max(runs, len(rw.a), len(rw.b))
	}
	var b strings.Builder
	b.WriteString("# Benchmarks: scenecs ecs vs Ark\n\n")
	b.WriteString("Generated by `bench/run.sh` (parsing with `bench/cmd/report`); do not edit by hand.\n\n")
	b.WriteString("Side-by-side `go test -bench` benchmarks of `github.com/scenecs/scenecs/ecs` and\n")
	b.WriteString("`github.com/mlange-42/ark` (version pinned in `bench/go.mod`), the same workloads\n")
	b.WriteString("written for both libraries and run in one process, the two libraries interleaved.\n")
	fmt.Fprintf(&b, "Values are the **median of %d runs**; lower is better. The ratio is scenecs/ark, so below 1 means scenecs is faster.\n\n", runs)
	b.WriteString("## Machine\n\n")
	fmt.Fprintf(&b, "- CPU: %s, %d cores (GOMAXPROCS %d)\n", model, cores, runtime.NumCPU())
	fmt.Fprintf(&b, "- Go: %s\n", goVersion)
	fmt.Fprintf(&b, "- Date: %s\n", time.Now().UTC().Format("2006-01-02 15:04 MST"))
	if rev != "" {
		fmt.Fprintf(&b, "- scenecs revision: %s\n", rev)
	}
	if cmd != "" {
		fmt.Fprintf(&b, "- Command (from the repository root): `%s`\n", cmd)
	}
	b.WriteString("\nThe machine is a shared 2-core VM; other work ran at the same time, so single runs are noisy. Quote medians.\n\n")
	b.WriteString("## Results\n\n")
	b.WriteString(table)
	b.WriteString(`
## Workloads

All components are 2×float64 (Pos and Vel, 32 bytes per entity with both).
Worlds are created, components registered and filters cached (Ark:
` + "`Register()`" + `) before timing; workloads that create entities run on
storage pre-warmed to the final size. Only the workload is timed.

| workload | scenecs | ark |
|---|---|---|
| QueryEntity/N: pos += vel over N entities, entity by entity | ` + "`Filter2.Query`, `Next`/`Get`" + ` | ` + "`Filter2.Query`, `Next`/`Get`" + ` |
| QueryColumn/N: the same, table by table over packed columns | ` + "`NextTable`/`Columns`" + ` | ` + "`NextTable`/`GetColumns`" + ` |
| Create/1M: create 1M Pos+Vel entities one by one | ` + "`Builder2.New`" + ` | ` + "`Map2.NewEntity`" + ` |
| CreateBatch/1M: the same in one batch | ` + "`Builder2.NewBatch`" + ` | ` + "`Map2.NewBatch`" + ` |
| AddRemove/100k: add Vel to 100k Pos entities, then remove it (per entity: one add + one remove) | ` + "`Map.Add`, `Map.Remove`" + ` | ` + "`Map.Add`, `Map.Remove`" + ` |
| AddRemoveBatch/100k (extra): the same as two batch operations | ` + "`World.AddAll`, `World.RemoveAll`" + ` | ` + "`Map.AddBatchFn(nil)`, `Map.RemoveBatch`" + ` |
| Destroy/100k: destroy 100k Pos+Vel entities one by one | ` + "`World.Destroy`" + ` | ` + "`World.RemoveEntity`" + ` |
| DestroyBatch/100k (extra): destroy them all in one batch | ` + "`World.DestroyAll`" + ` | ` + "`World.RemoveEntities`" + ` |
| RandomGet/100k: read Pos of 100k entities in shuffled order | ` + "`Map.Get`" + ` | ` + "`Map.Get`" + ` |
| Overhead/1M: heap bytes per entity beyond the 32 B of component data, after creating 1M Pos+Vel entities one by one (HeapAlloc after a full GC, before and after, minus N×32 B) | ` + "`Builder2.New`" + ` | ` + "`Map2.NewEntity`" + ` |
| OverheadChurn/1M (extra): the same in a world that created and destroyed one entity first (a free slot to reuse) | ` + "`Builder2.New`" + ` | ` + "`Map2.NewEntity`" + ` |

ns/entity is the timed duration of one pass divided by N. The overhead
includes each library's spare capacity (slices grown by doubling or by
append) as well as its per-entity bookkeeping.

## All runs

`)
	b.WriteString("| workload | scenecs runs | ark runs |\n|---|---|---|\n")
	for _, rw := range rows {
		fmt.Fprintf(&b, "| %s/%s | %s | %s |\n", rw.workload, rw.size, samples(rw.a), samples(rw.b))
	}
	return b.String()
}

// cpuInfo returns the CPU model name and the number of logical CPUs from
// /proc/cpuinfo (falling back to runtime.NumCPU).
func cpuInfo() (string, int) {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", runtime.NumCPU()
	}
	model, n := "", 0
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "model name":
			if model == "" {
				model = strings.TrimSpace(v)
			}
		case "processor":
			n++
		}
	}
	if n == 0 {
		n = runtime.NumCPU()
	}
	return model, n
}

func goVersionLine() string {
	out, err := exec.Command("go", "version").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}
