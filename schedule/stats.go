package schedule

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// statSamples is how many runs of an entry its statistics keep.
const statSamples = 512

// timings keeps the last runs of an entry: when each started (monoNow)
// and how long it took (ns).
type timings struct {
	at, d []int64 // rings once full
	next  int
	runs  uint64
}

// add records a run.
func (t *timings) add(at, d int64) {
	t.runs++
	if len(t.at) < statSamples {
		t.at = append(t.at, at)
		t.d = append(t.d, d)
		return
	}
	t.at[t.next], t.d[t.next] = at, d
	t.next = (t.next + 1) % statSamples
}

// SystemStats are the times one entry of the schedule took over a recent
// window ([Schedule.Stats]): for a chunked one, the sum of its chunks'
// times (the work done, whatever ran in parallel).
type SystemStats struct {
	// Name is the entry's name (see [SystemInfo]).
	Name string
	// Runs counts every run so far; Samples those in the window (at most
	// the last 512).
	Runs    uint64
	Samples int
	// P50 and P99 are the median and the 99th percentile of the runs in
	// the window, Max the longest, Last the latest run (of any time).
	P50, P99, Max, Last time.Duration
}

// Stats returns, in run order, the times of each entry's runs that
// started within window before now (all those kept, for window 0).
func (s *Schedule) Stats(window time.Duration) []SystemStats {
	if s.prepare() != nil {
		return nil
	}
	since := int64(0)
	if window > 0 {
		since = monoNow() - int64(window)
	}
	out := make([]SystemStats, 0, len(s.plan.entries))
	var ds []int64
	for _, e := range s.plan.entries {
		t := &e.stats
		st := SystemStats{Name: e.name, Runs: t.runs}
		if n := len(t.d); n > 0 {
			last := n - 1
			if n == statSamples {
				last = (t.next + statSamples - 1) % statSamples
			}
			st.Last = time.Duration(t.d[last])
		}
		ds = ds[:0]
		for i, at := range t.at {
			if at >= since {
				ds = append(ds, t.d[i])
			}
		}
		if len(ds) > 0 {
			slices.Sort(ds)
			st.Samples = len(ds)
			st.P50 = time.Duration(ds[(len(ds)-1)/2])
			st.P99 = time.Duration(ds[min(len(ds)-1, len(ds)*99/100)])
			st.Max = time.Duration(ds[len(ds)-1])
		}
		out = append(out, st)
	}
	return out
}

// WriteTable writes the schedule as a table, as scene-run schedule prints
// it: the workers, the phases, then one line per entry in run order (its
// batch: entries of one batch may run at the same time), then the
// warnings. A window above 0 adds each entry's median and 99th
// percentile time per run over that window.
func (s *Schedule) WriteTable(w io.Writer, window time.Duration) error {
	infos, err := s.Systems()
	if err != nil {
		return err
	}
	var stats []SystemStats
	if window > 0 {
		stats = s.Stats(window)
	}
	fmt.Fprintf(w, "workers: %d\n", s.workers)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHASE\tRUNS")
	for _, ph := range s.Phases() {
		step := "once per tick"
		if ph.Step > 0 {
			step = fmt.Sprintf("every fixed step of %.4g s (%.4g Hz), at most %d per tick", ph.Step, 1/ph.Step, ph.MaxSteps)
		}
		fmt.Fprintf(tw, "%s\t%s\n", ph.Name, step)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	// Rows are cells joined by tabs, without one after the last, which
	// would pad the line with spaces.
	head := "#\tPHASE\tBATCH\tSYSTEM\tKIND\tMODE\tREADS\tWRITES\tBEFORE\tAFTER"
	if stats != nil {
		head += "\tP50\tP99"
	}
	fmt.Fprintln(tw, head)
	for i, si := range infos {
		kind := si.Kind + " " + si.Hook
		runs := "parallel"
		switch {
		case !si.Declared:
			runs = "exclusive (undeclared)"
		case si.Exclusive:
			runs = "exclusive"
		}
		if si.ChunkSize > 0 {
			runs += fmt.Sprintf(", chunks of %d", si.ChunkSize)
		}
		if si.Every > 1 {
			runs += fmt.Sprintf(", every %d runs", si.Every)
		}
		if si.Interval > 0 {
			runs += fmt.Sprintf(", every %gs", si.Interval)
		}
		if !si.Enabled {
			runs += ", disabled"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s", si.Order, si.Phase, si.Batch, si.Name, kind, runs,
			list(si.Reads), list(si.Writes), list(si.Before), list(si.After))
		if stats != nil {
			fmt.Fprintf(tw, "\t%v\t%v", stats[i].P50, stats[i].P99)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, warn := range s.Warnings() {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	return nil
}

// list prints names for a table cell: comma-separated, "-" for none.
func list(names []string) string {
	if len(names) == 0 {
		return "-"
	}
	return strings.Join(names, ",")
}
