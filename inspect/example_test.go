package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/scenecs/scenecs/components"
	"github.com/scenecs/scenecs/ecs"
	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/registry"
)

// Attach the inspector to a program's own loop: Listen serves it on a
// free loopback port, and Tick serves waiting requests between ticks.
func Example() {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		log.Fatal(err)
	}
	scene, err := loader.LoadFile(reg, "level.yaml", loader.Options{})
	if err != nil {
		log.Fatal(err)
	}
	in := inspect.New(reg, inspect.Options{Scene: scene})
	url, err := in.Listen(context.Background(), "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("inspect:", url)
	for range time.Tick(time.Second / 60) {
		in.Tick(1.0 / 60) // serve requests, then tick unless paused
	}
}

// Mount the inspector under a prefix of the program's own server, and tick
// on the program's own terms with Drain, ShouldTick and Observe.
func ExampleInspector_ServeHTTP() {
	reg := registry.New(ecs.NewWorld())
	if _, err := components.Register(reg); err != nil {
		log.Fatal(err)
	}
	scene := "entities:\n  - id: goblin\n    enemy:\n  - id: ghost\n    enemy:\n    alive:\n"
	if _, err := loader.LoadBytes(reg, "level.yaml", []byte(scene), loader.Options{}); err != nil {
		log.Fatal(err)
	}
	in := inspect.New(reg, inspect.Options{})
	mux := http.NewServeMux()
	mux.Handle("/inspect/", http.StripPrefix("/inspect", in))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// The simulation goroutine.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-in.Wake(): // a request is waiting
			case <-time.After(time.Second / 60):
			}
			in.Drain()
			if in.ShouldTick() {
				t0 := time.Now()
				_ = reg.Tick(1.0 / 60)
				in.Observe(time.Since(t0))
			}
		}
	}()

	res, err := http.Get(srv.URL + "/inspect/api/query?selector=[enemy]:not([alive])")
	if err != nil {
		log.Fatal(err)
	}
	defer res.Body.Close()
	var q struct{ Matches []string }
	if err := json.NewDecoder(res.Body).Decode(&q); err != nil {
		log.Fatal(err)
	}
	fmt.Println(q.Matches)
	// Output: [goblin]
}
