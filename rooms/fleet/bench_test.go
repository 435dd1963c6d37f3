package fleet

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
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
