package fleet

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/internal/cputime"
	"github.com/scenecs/scenecs/scenes"
)

// benchFleet is one host with n rooms of rain.yaml on an embedded NATS
// server reached over loopback TCP, and a client on a connection of its
// own.
func benchFleet(b *testing.B, n int) (*Host, *Client) {
	s, err := RunServer("127.0.0.1", 0, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	conn := func() *nats.Conn {
		nc, err := nats.Connect(s.ClientURL())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		return nc
	}
	opt := Options{ID: "bench", Scenes: os.DirFS("../testdata"), StateEvery: -1}
	h, err := Join(context.Background(), conn(), opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(h.Close)
	cl, err := NewClient(context.Background(), conn(), "")
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if _, err := cl.Create(context.Background(), CreateRequest{ID: fmt.Sprintf("b%03d", i), Scene: "rain.yaml", Hz: 30}); err != nil {
			b.Fatal(err)
		}
	}
	return h, cl
}

// BenchmarkQuery: one query ("#ground") to a room at 30 ticks/s, one at a
// time: through NATS over loopback TCP (client -> server -> host -> room
// and back), against the same query over the room's HTTP API on a
// loopback listener and straight to Room.Request (no network), in the
// same run.
func BenchmarkQuery(b *testing.B) {
	h, cl := benchFleet(b, 1)
	r := h.Local().Room("b000")
	b.Run("nats", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := cl.Ask(context.Background(), "b000", "query", []byte("#ground")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("http", func(b *testing.B) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		srv := &http.Server{Handler: r}
		go srv.Serve(ln)
		defer srv.Close()
		url := "http://" + ln.Addr().String() + "/api/query?selector=%23ground"
		getN(b, url)
	})
	b.Run("direct", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if st, body := r.Request("GET", "/api/query?selector=%23ground", nil); st != 200 {
				b.Fatalf("%d %s", st, body)
			}
		}
	})
}

// BenchmarkMessages: requests ("info") from 8 goroutines at once to 100
// rooms in turn, through NATS; msgs/s counts request and answer pairs.
// The baseline, in the same run, is the same requests straight to the
// rooms (Room.Info).
func BenchmarkMessages(b *testing.B) {
	h, cl := benchFleet(b, 100)
	rs := h.Local().Rooms()
	b.Run("nats", func(b *testing.B) {
		var k atomic.Int64
		start := time.Now()
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				id := rs[k.Add(1)%int64(len(rs))].ID()
				if _, err := cl.Ask(context.Background(), id, "info", nil); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	})
	b.Run("direct", func(b *testing.B) {
		var k atomic.Int64
		start := time.Now()
		b.SetParallelism(4)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_ = rs[k.Add(1)%int64(len(rs))].Info()
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
	})
}

// serveRoomHTTP serves room id on a loopback HTTP server: through a
// Proxy on a NATS connection of its own (proxy true), or the room's own
// API (its inspector, as a page on its own host serves it). It returns
// the server's URL.
func serveRoomHTTP(b *testing.B, h *Host, id string, proxy bool) string {
	var handler http.Handler = h.Local().Room(id)
	if proxy {
		nc, err := nats.Connect(h.nc.ConnectedUrl())
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(nc.Close)
		p, err := NewProxy(nc, "", ProxyOptions{})
		if err != nil {
			b.Fatal(err)
		}
		handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { p.ServeRoom(w, r, id) })
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: handler}
	go srv.Serve(ln)
	b.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// BenchmarkProxyQuery: one query ("#ground") to a room at 30 ticks/s,
// one at a time, over HTTP: through a Proxy (HTTP to the proxy, NATS
// over loopback TCP to the room's host and back, as a host's page
// reaches a room of another host), against the room's own HTTP API, in
// the same run.
func BenchmarkProxyQuery(b *testing.B) {
	h, _ := benchFleet(b, 1)
	for _, c := range []struct {
		name  string
		proxy bool
	}{{"proxy", true}, {"http", false}} {
		url := serveRoomHTTP(b, h, "b000", c.proxy) + "/api/query?selector=%23ground"
		b.Run(c.name, func(b *testing.B) {
			getN(b, url)
		})
	}
}

// BenchmarkTransformStream10k: the transform stream the page's view
// reads (position and scale of [position], asked at 60 frames a second,
// the most the stream sends) of a room of the 10,000-cube scene at 30
// ticks/s, through a Proxy and from the room's own HTTP API, in the same
// run: frames/s as read, MB/s, and the process's CPU time per frame (the
// room's ticks included, the same in both).
func BenchmarkTransformStream10k(b *testing.B) {
	h, cl := benchFleet(b, 0)
	data, err := fs.ReadFile(scenes.FS, "cubes.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := cl.Create(context.Background(), CreateRequest{ID: "cubes", Scene: "cubes.yaml", Data: data, Hz: 30}); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		proxy bool
	}{{"proxy", true}, {"http", false}} {
		url := serveRoomHTTP(b, h, "cubes", c.proxy) + "/api/transforms/stream?components=position,scale&selector=%5Bposition%5D&fps=60"
		b.Run(c.name, func(b *testing.B) {
			resp, err := http.Get(url)
			if err != nil {
				b.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatal(resp.Status)
			}
			var bytes int64
			start, cpu := time.Now(), cputime.Process()
			for i := 0; i < b.N; i++ {
				var size [4]byte
				if _, err := io.ReadFull(resp.Body, size[:]); err != nil {
					b.Fatal(err)
				}
				n, err := io.CopyN(io.Discard, resp.Body, int64(binary.LittleEndian.Uint32(size[:])))
				if err != nil {
					b.Fatal(err)
				}
				bytes += 4 + n
			}
			s := time.Since(start).Seconds()
			b.ReportMetric(float64(b.N)/s, "frames/s")
			b.ReportMetric(float64(cputime.Process()-cpu)/1e6/float64(b.N), "cpu-ms/frame")
			b.ReportMetric(float64(bytes)/s/1e6, "MB/s")
		})
	}
}

// getN GETs url b.N times, each answer read whole and wanted 200.
func getN(b *testing.B, url string) {
	for i := 0; i < b.N; i++ {
		resp, err := http.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}
