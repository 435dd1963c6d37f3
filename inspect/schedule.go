package inspect

import (
	"fmt"
	"net/http"
	"time"

	"github.com/scenecs/scenecs/editor"
	"github.com/scenecs/scenecs/registry"
)

// ScheduleWindow is how far back the per-system times of GET
// /api/schedule and /api/stats look.
const ScheduleWindow = 5 * time.Second

// systemTimesEvery bounds how often Observe recomputes the per-system
// times that /api/stats serves.
const systemTimesEvery = 250 * time.Millisecond

// ScheduleInfo is the answer of GET /api/schedule, and what scene-run
// schedule -json prints: the phases, and the systems and component ticks
// in the order they run, with their access, rates and recent times.
type ScheduleInfo struct {
	// Workers is the number of workers parallel batches may use.
	Workers int `json:"workers"`
	// Phases are the phases in order.
	Phases []PhaseInfo `json:"phases"`
	// Systems are the schedule's entries in run order.
	Systems []SystemInfo `json:"systems"`
	// Warnings are the ambiguities and doubtful declarations; Error the
	// error that stops the schedule, if any (then Systems is empty).
	Warnings []string `json:"warnings,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// PhaseInfo is one phase of a ScheduleInfo.
type PhaseInfo struct {
	Name string `json:"name"`
	// Step is the fixed step in seconds (0: once per tick), MaxSteps the
	// most steps per tick, Alpha how far the phase is into its next step.
	Step     float64 `json:"step,omitempty"`
	MaxSteps int     `json:"maxSteps,omitempty"`
	Alpha    float64 `json:"alpha,omitempty"`
}

// SystemInfo is one entry of a ScheduleInfo: registry.SystemInfo, and its
// times over the last ScheduleWindow in milliseconds.
type SystemInfo struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Hook      string   `json:"hook"`
	Phase     string   `json:"phase"`
	Order     int      `json:"order"`
	Batch     int      `json:"batch"`
	Before    []string `json:"before,omitempty"`
	After     []string `json:"after,omitempty"`
	Declared  bool     `json:"declared"`
	Exclusive bool     `json:"exclusive"`
	Reads     []string `json:"reads,omitempty"`
	Writes    []string `json:"writes,omitempty"`
	Every     int      `json:"every,omitempty"`
	Interval  float64  `json:"interval,omitempty"`
	ChunkSize int      `json:"chunkSize,omitempty"`
	Enabled   bool     `json:"enabled"`
	SystemTime
}

// SystemTime is the recent time of one system: its runs so far, and the
// median and 99th percentile of its runs over the last ScheduleWindow,
// and its last run, in milliseconds.
type SystemTime struct {
	Name string  `json:"name"`
	Runs uint64  `json:"runs"`
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
	Last float64 `json:"last"`
}

// ScheduleOf describes reg's schedule. Call it on the simulation
// goroutine (it reads the Registry).
func ScheduleOf(reg *registry.Registry) ScheduleInfo {
	s := reg.Schedule()
	out := ScheduleInfo{Workers: s.Workers(), Phases: []PhaseInfo{}, Systems: []SystemInfo{}, Warnings: s.Warnings()}
	for _, ph := range s.Phases() {
		out.Phases = append(out.Phases, PhaseInfo{Name: ph.Name, Step: ph.Step, MaxSteps: ph.MaxSteps, Alpha: ph.Alpha})
	}
	infos, err := s.Systems()
	if err != nil {
		out.Error = err.Error()
		return out
	}
	times := systemTimes(s)
	for i, si := range infos {
		out.Systems = append(out.Systems, SystemInfo{
			Name: si.Name, Kind: si.Kind, Hook: si.Hook, Phase: si.Phase, Order: si.Order, Batch: si.Batch,
			Before: si.Before, After: si.After, Declared: si.Declared, Exclusive: si.Exclusive,
			Reads: si.Reads, Writes: si.Writes, Every: si.Every, Interval: si.Interval, ChunkSize: si.ChunkSize,
			Enabled: si.Enabled, SystemTime: times[i],
		})
	}
	return out
}

// systemTimes returns the recent times of s's entries, in run order.
func systemTimes(s *registry.Schedule) []SystemTime {
	st := s.Stats(ScheduleWindow)
	out := make([]SystemTime, len(st))
	for i, x := range st {
		out[i] = SystemTime{Name: x.Name, Runs: x.Runs, P50: ms(x.P50), P99: ms(x.P99), Last: ms(x.Last)}
	}
	return out
}

// observeSystems refreshes the per-system times /api/stats serves, at
// most every systemTimesEvery. It runs on the simulation goroutine.
func (in *Inspector) observeSystems(now time.Time) {
	if now.Sub(in.sysTimesAt) < systemTimesEvery {
		return
	}
	in.sysTimesAt = now
	in.stats.setSystems(systemTimes(in.reg.Schedule()))
}

// getSchedule: GET /api/schedule.
func (in *Inspector) getSchedule(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() reply { return okReply(ScheduleOf(in.reg)) })
}

// postSchedule: POST /api/schedule/enable|disable|step?name=NAME turns a
// system (or component tick) on or off, or runs it once now (the World
// changes: the change is published, with op "system-step"). It answers
// the schedule as GET /api/schedule does.
func (in *Inspector) postSchedule(w http.ResponseWriter, r *http.Request, op string) {
	name := r.URL.Query().Get("name")
	if name == "" {
		writeError(w, http.StatusBadRequest, "inspect: "+r.URL.Path+" needs ?name=SYSTEM")
		return
	}
	in.do(w, r, func() reply {
		s := in.reg.Schedule()
		var err error
		switch op {
		case "enable", "disable":
			err = s.SetEnabled(name, op == "enable")
		case "step":
			err = s.RunOnce(name)
			in.stats.setWorld(in.w.Len(), in.reg.Time())
		}
		if err != nil {
			return errReply(http.StatusBadRequest, fmt.Sprintf("inspect: %s %s: %v", op, name, err))
		}
		in.hub.publish("change", changeEvent{Change: editor.Change{Op: "system-" + op, Component: name}})
		return okReply(ScheduleOf(in.reg))
	})
}
