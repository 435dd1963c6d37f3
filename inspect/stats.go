package inspect

import (
	"slices"
	"sync"
	"time"
)

// Stats are the tick statistics of a running scene, as GET /api/stats
// and the "stats" events give them.
type Stats struct {
	// Ticks counts the ticks observed since the Inspector was made.
	Ticks uint64 `json:"ticks"`
	// TicksPerSecond is the tick rate over the last second of wall time
	// (or since the first tick, if that is more recent).
	TicksPerSecond float64 `json:"ticksPerSecond"`
	// MsPerTick are percentiles of the time one tick took, in
	// milliseconds, over the same window (up to the last 4096 ticks);
	// zero when no tick ran in it.
	MsPerTick Percentiles `json:"msPerTick"`
	// Load is the share of the same window's wall time spent ticking,
	// from 0 to 1: near 1 for a simulation run flat out (it ticks again
	// as soon as a tick ends), or one whose ticks take about the whole
	// time step; small for a paced one with time to spare. A page on the
	// simulation's machine yields to a loaded one (docs/inspector.md).
	Load float64 `json:"load"`
	// Entities is the number of live entities after the last tick or
	// request.
	Entities int `json:"entities"`
	// Time is the scene time in seconds (Registry.Time).
	Time float64 `json:"time"`
	// Paused reports whether the inspector holds the scene paused.
	Paused bool `json:"paused"`
	// Queue is the number of requests waiting for the simulation.
	Queue int `json:"queue"`
	// Clients is the number of open event streams.
	Clients int `json:"clients"`
	// Systems are the times of the schedule's systems and component
	// ticks, in run order, over the last ScheduleWindow (refreshed at most
	// every 250 ms).
	Systems []SystemTime `json:"systems"`
}

// Percentiles of tick durations, in milliseconds.
type Percentiles struct {
	P50 float64 `json:"p50"`
	P99 float64 `json:"p99"`
}

// statsWindow is how far back the rate and percentiles look.
const statsWindow = time.Second

// ringSize is the number of recent tick samples kept.
const ringSize = 4096

type sample struct {
	end time.Duration // since statsRing.epoch (monotonic)
	dur time.Duration
}

// statsRing keeps recent tick samples. record runs on the simulation
// goroutine once per tick: it takes a lock held only for a few stores.
type statsRing struct {
	mu       sync.Mutex
	epoch    time.Time
	first    time.Duration // end of the first tick (-1: none yet)
	ring     [ringSize]sample
	next     int
	n        int
	ticks    uint64
	entities int
	time     float64
	paused   bool
	systems  []SystemTime
}

func (s *statsRing) init(entities int) {
	s.epoch = time.Now()
	s.first = -1
	s.entities = entities
}

func (s *statsRing) record(now time.Time, d time.Duration, entities int, t float64) {
	end := now.Sub(s.epoch)
	s.mu.Lock()
	if s.first < 0 {
		s.first = end - d
	}
	s.ring[s.next] = sample{end, d}
	s.next = (s.next + 1) % ringSize
	if s.n < ringSize {
		s.n++
	}
	s.ticks++
	s.entities, s.time = entities, t
	s.mu.Unlock()
}

func (s *statsRing) setWorld(entities int, t float64) {
	s.mu.Lock()
	s.entities, s.time = entities, t
	s.mu.Unlock()
}

func (s *statsRing) setSystems(st []SystemTime) {
	s.mu.Lock()
	s.systems = st
	s.mu.Unlock()
}

func (s *statsRing) setPaused(p bool) {
	s.mu.Lock()
	s.paused = p
	s.mu.Unlock()
}

// snapshot computes the statistics as of now.
func (s *statsRing) snapshot(now time.Time) Stats {
	at := now.Sub(s.epoch)
	var durs []time.Duration
	var busy time.Duration
	s.mu.Lock()
	out := Stats{Ticks: s.ticks, Entities: s.entities, Time: s.time, Paused: s.paused, Systems: s.systems}
	if out.Systems == nil {
		out.Systems = []SystemTime{}
	}
	first := s.first
	oldest := at
	for i := 1; i <= s.n; i++ {
		sm := s.ring[(s.next-i+ringSize)%ringSize]
		if at-sm.end > statsWindow {
			break
		}
		durs = append(durs, sm.dur)
		busy += sm.dur
		oldest = sm.end - sm.dur
	}
	full := len(durs) == ringSize
	s.mu.Unlock()
	if len(durs) == 0 {
		return out
	}
	span := statsWindow
	switch {
	case full:
		span = at - oldest // the ring holds less than the window
	case first >= 0 && at-first < span:
		span = at - first
	}
	if span > 0 {
		out.TicksPerSecond = float64(len(durs)) / span.Seconds()
		out.Load = min(1, busy.Seconds()/span.Seconds())
	}
	slices.Sort(durs)
	out.MsPerTick = Percentiles{P50: ms(rank(durs, 50)), P99: ms(rank(durs, 99))}
	return out
}

// rank returns the p-th percentile of sorted durations (nearest rank).
func rank(sorted []time.Duration, p int) time.Duration {
	i := (len(sorted)*p + 99) / 100
	if i > 0 {
		i--
	}
	return sorted[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (s *statsRing) ticksNow() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ticks
}
