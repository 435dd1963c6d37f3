package inspect

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// GET /api/transforms/stream sends GET /api/transforms answers one after
// another on one response, at most fps a second, until the client goes:
//
//	GET /api/transforms/stream?components=position,scale&selector=[position]&fps=30
//
// components and selector are those of /api/transforms; fps (1 to 60,
// default 30) bounds the rate. Each frame is a little-endian uint32 byte
// length followed by that many bytes, exactly the body /api/transforms
// would answer then (its 16-byte header, then the floats); X-Layout is
// the layout of every frame. A bad parameter is answered as
// /api/transforms answers it, before the stream starts. The stream ends
// when a frame cannot be made (the Inspector closed, say).
//
// A browser pays a request's fixed cost (tens of milliseconds on a busy
// machine) once for the stream instead of once per frame, which is what
// lets the page's view follow 10,000 moving cubes at 20 frames a second
// and more. Each frame is one work item on the simulation goroutine, like
// one GET /api/transforms.

// maxTransformStreams bounds the transform streams open at once (see
// slots.go for how slots are taken back).
const maxTransformStreams = 16

// Bounds of the fps parameter.
const (
	defaultStreamFPS = 30
	maxStreamFPS     = 60
)

// getTransformStream: GET /api/transforms/stream.
func (in *Inspector) getTransformStream(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	fps := defaultStreamFPS
	if s := q.Get("fps"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > maxStreamFPS {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("inspect: fps=%q: want a number of frames per second from 1 to %d", s, maxStreamFPS))
			return
		}
		fps = v
	}
	rc := http.NewResponseController(w)
	sl, why := in.transformSlots.Acquire(time.Now(), func() { _ = rc.SetWriteDeadline(time.Now()) })
	if sl == nil {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, why)
		return
	}
	defer in.transformSlots.Release(sl)

	// Each frame is the answer of GET /api/transforms with the same
	// parameters, made by its own handler.
	one := r.Clone(r.Context())
	one.URL = &url.URL{Path: "/api/transforms", RawQuery: url.Values{"components": q["components"], "selector": q["selector"]}.Encode()}
	frame := func() *recorder {
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		in.getTransforms(rec, one)
		return rec
	}

	first := frame()
	if first.status != http.StatusOK {
		first.copyTo(w)
		return
	}
	streamDeadlines(rc)
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Layout", first.header.Get("X-Layout"))
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	t := time.NewTicker(time.Second / time.Duration(fps))
	defer t.Stop()
	var size [4]byte
	for rec := first; ; {
		binary.LittleEndian.PutUint32(size[:], uint32(rec.body.Len()))
		now := time.Now()
		sl.WritingSince(now)
		_ = rc.SetWriteDeadline(now.Add(in.timeouts.StreamWrite))
		_, err := w.Write(size[:])
		if err == nil {
			_, err = w.Write(rec.body.Bytes())
		}
		if err == nil {
			err = rc.Flush()
		}
		sl.WritingSince(time.Time{})
		if err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-in.closed:
			return
		case <-sl.Lost:
			return
		case <-t.C:
		}
		if rec = frame(); rec.status != http.StatusOK {
			return
		}
	}
}

// recorder is an http.ResponseWriter that keeps the answer.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (rec *recorder) Header() http.Header         { return rec.header }
func (rec *recorder) Write(b []byte) (int, error) { return rec.body.Write(b) }
func (rec *recorder) WriteHeader(status int)      { rec.status = status }

// copyTo writes the kept answer to w.
func (rec *recorder) copyTo(w http.ResponseWriter) {
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.status)
	_, _ = w.Write(rec.body.Bytes())
}
