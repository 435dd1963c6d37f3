// Package bench holds side-by-side benchmarks of scenecs's ecs package and
// github.com/mlange-42/ark. It is its own module so that the main module
// never depends on ark; run it with run.sh, which writes
// docs/benchmarks.md.
//
// Every workload is written once per library, the way each library's docs
// recommend for speed, with the same setup (worlds pre-created, components
// registered, filters cached, storage pre-warmed where the workload
// creates entities); only the workload itself is timed. Sub-benchmarks are
// named Workload/lib/N and report ns/entity (or B/entity for Overhead) as
// a custom metric.
package bench

// Pos and Vel are the two components of every workload: 2×float64 each,
// 32 bytes of component data per entity.
type Pos struct{ X, Y float64 }

// Vel is the velocity component; see Pos.
type Vel struct{ X, Y float64 }

// ComponentBytes is the component data of one entity with Pos and Vel.
const ComponentBytes = 32
