package scenerun

import (
	"context"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"time"

	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/loader"
	"github.com/scenecs/scenecs/loader/live"
)

// checkInspectAddr checks the -inspect address before anything runs.
func checkInspectAddr(addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return usagef("-inspect %q: want host:port, such as 127.0.0.1:0 (a free port) or localhost:8090", addr)
	}
	return nil
}

// startInspect serves the inspection API of the running scene on addr
// until ctx ends, and prints its URL as the one line
// "inspect: http://HOST:PORT/?token=TOKEN". Hot reloads are published to
// it through f.reloaded. A scene read from a file (path) can be saved
// into (?save=1): the inspector gets a Reloader of its own on it.
func startInspect(ctx context.Context, rt *runtime, scene *loader.Scene, path string, f *runFlags, stdout io.Writer) error {
	opt := inspect.Options{Scene: scene, Behaviour: rt.b, Journal: f.jf.writer()}
	if path != "" {
		opt.Reloader = &live.Reloader{Scene: scene, File: filepath.Clean(path), Options: loadOptions(ctx)}
	}
	in := inspect.New(rt.reg, opt)
	url, err := in.Listen(ctx, f.inspect)
	if err != nil {
		return fmt.Errorf("%s: -inspect: %v", rt.c.Name, err)
	}
	f.inspector = in
	f.reloaded = in.Reloaded
	fmt.Fprintf(stdout, "inspect: %s\n", url)
	if rt.c.bare {
		fmt.Fprintf(stdout, "running %s in real time until Ctrl-C; open the address above to watch and edit it (%s -ticks N runs N ticks and exits, %s help lists the commands)\n",
			rt.c.sceneName(path), rt.c.Name, rt.c.Name)
	}
	return nil
}

// beforeTick serves the inspector's waiting requests (if there is an
// inspector) and reports whether to tick now: false while it holds the
// scene paused.
func beforeTick(in *inspect.Inspector) bool {
	if in == nil {
		return true
	}
	in.Drain()
	return in.ShouldTick()
}

// observeTick reports a tick's duration to the inspector, if any.
func observeTick(in *inspect.Inspector, d time.Duration) {
	if in != nil {
		in.Observe(d)
	}
}

// waitUntil waits until t, applying a reload if one comes (it then returns
// at once, with reloaded true) and serving the inspector's requests as
// they arrive, in the time left until t (beforeTick serves them within
// the inspector's share otherwise). ok is false if ctx ended.
func waitUntil(ctx context.Context, t time.Time, reloads <-chan func(), in *inspect.Inspector) (reloaded, ok bool) {
	var wake <-chan struct{}
	if in != nil {
		wake = in.Wake()
		in.DrainUntil(t) // what waits, or a dump begun, in the time to spare
	}
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, false
		case apply := <-reloads:
			apply()
			return true, true
		case <-wake:
			in.DrainUntil(t) // the time to spare until the next tick
		case <-timer.C:
			return false, true
		}
	}
}
