package live

import (
	"reflect"
	"slices"

	"github.com/scenecs/scenecs/loader/plan"
)

// scheduleChanges returns the names whose schedule settings differ
// between old and new, sorted.
func scheduleChanges(old, new []*plan.SchedulePlan) []string {
	byName := func(ps []*plan.SchedulePlan) map[string]*plan.SchedulePlan {
		m := make(map[string]*plan.SchedulePlan, len(ps))
		for _, p := range ps {
			m[p.Name] = p
		}
		return m
	}
	o, n := byName(old), byName(new)
	var out []string
	for name, x := range o {
		if y, ok := n[name]; !ok || !reflect.DeepEqual(x.Given, y.Given) || !reflect.DeepEqual(x.Settings, y.Settings) {
			out = append(out, name)
		}
	}
	for name := range n {
		if _, ok := o[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
