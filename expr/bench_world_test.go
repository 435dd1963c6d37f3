package expr

import (
	"math"
	"testing"
	"unsafe"

	"github.com/expr-lang/expr/vm"
	"github.com/scenecs/scenecs/ecs"
)

const benchEntities = 10_000

// benchWorld returns a World of benchEntities entities with a position
// and a health, and the filter over positions.
func benchWorld(b *testing.B) (*ecs.World, ecs.Map[benchPos], ecs.Map[benchHealth], *ecs.Filter1[benchPos], []ecs.Entity) {
	b.Helper()
	w := ecs.NewWorld()
	pos := ecs.MustRegister[benchPos](w, "position")
	health := ecs.MustRegister[benchHealth](w, "health")
	bld := ecs.NewBuilder2(pos, health)
	es := make([]ecs.Entity, benchEntities)
	for i := range es {
		es[i] = bld.New(benchPos{X: float64(i)}, benchHealth{HP: 100})
	}
	return w, pos, health, ecs.NewFilter1(pos), es
}

// BenchmarkBind is one tick of a bind, position.y kept equal to an
// expression, over 10,000 entities: the hand-written Go loop, the
// closure, and expr's VM. The per-entity form reads the entity's own
// position.x, so that no loop can hoist the computation.
func BenchmarkBind(b *testing.B) {
	for _, c := range []struct {
		name, src string
		hand      func(filter *ecs.Filter1[benchPos], t float64)
	}{
		{"sin", "sin(time*2)*3", func(filter *ecs.Filter1[benchPos], t float64) {
			for q := filter.Query(); q.Next(); {
				q.Get().Y = math.Sin(t*2) * 3
			}
		}},
		{"per-entity", "sin(time*2 + position.x)*3", func(filter *ecs.Filter1[benchPos], t float64) {
			for q := filter.Query(); q.Next(); {
				p := q.Get()
				p.Y = math.Sin(t*2+p.X) * 3
			}
		}},
	} {
		b.Run(c.name+"/hand", func(b *testing.B) {
			_, _, _, filter, _ := benchWorld(b)
			t := 0.0
			for b.Loop() {
				t += 1.0 / 60
				c.hand(filter, t)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchEntities, "ns/entity")
		})
		b.Run(c.name+"/closure", func(b *testing.B) {
			_, _, _, filter, _ := benchWorld(b)
			fn := mustCompile(b, c.src, Number).NumberFunc()
			var f Frame
			for b.Loop() {
				f.Time += 1.0 / 60
				for q := filter.Query(); q.Next(); {
					p := q.Get()
					f.Comp[0] = unsafe.Pointer(p)
					p.Y = fn(&f)
				}
			}
			if f.Err() != nil {
				b.Fatal(f.Err())
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchEntities, "ns/entity")
		})
		b.Run(c.name+"/vm", func(b *testing.B) {
			_, _, _, filter, _ := benchWorld(b)
			p := mustVM(b, c.src, vmEnvPos{})
			var machine vm.VM
			env := &vmEnvPos{}
			for b.Loop() {
				env.Time += 1.0 / 60
				for q := filter.Query(); q.Next(); {
					pp := q.Get()
					env.Position = vmVec3{pp.X, pp.Y, pp.Z}
					out, _ := machine.Run(p, env)
					pp.Y = out.(float64)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchEntities, "ns/entity")
		})
	}
}

// vmEnvPos is the VM's environment for the bind.
type vmEnvPos struct {
	Time     float64 `expr:"time"`
	Position vmVec3  `expr:"position"`
}

// BenchmarkEvent is one delivery of an event to an `on` handler: the
// condition `detail.damage > 3 && health.hp > 0` decides, and the set
// `health.hp: health.hp - detail.damage` writes the component. The host
// looks the component up in the World, fills the frame and evaluates
// both programs.
func BenchmarkEvent(b *testing.B) {
	w, _, health, _, es := benchWorld(b)
	detail := map[string]any{"damage": 5.0}
	hid := health.ID()
	b.Run("hand", func(b *testing.B) {
		i := 0
		for b.Loop() {
			e := es[i%benchEntities]
			i++
			ptr, err := w.GetPtr(e, hid)
			if err != nil {
				b.Fatal(err)
			}
			h := (*benchHealth)(ptr)
			d, _ := detail["damage"].(float64)
			if d > 3 && h.HP > 0 {
				h.HP = h.HP - d + 5 // + 5: keep the value steady across b.N
			}
		}
	})
	b.Run("closure", func(b *testing.B) {
		cond := mustCompile(b, "detail.damage > 3 && health.hp > 0", Bool)
		set := mustCompile(b, "health.hp - detail.damage + 5", Number)
		var f Frame
		i := 0
		for b.Loop() {
			e := es[i%benchEntities]
			i++
			ptr, err := w.GetPtr(e, hid)
			if err != nil {
				b.Fatal(err)
			}
			f.Entity, f.Event, f.Detail, f.Comp[1] = e, "hit", detail, ptr
			if ok, err := cond.EvalBool(&f); err == nil && ok {
				v, err := set.EvalNumber(&f)
				if err != nil {
					b.Fatal(err)
				}
				(*benchHealth)(ptr).HP = v
			}
		}
	})
}
