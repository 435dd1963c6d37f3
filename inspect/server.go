package inspect

import (
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// Timeouts bound how long a client may hold a connection to the
// inspector's server, so that clients that send slowly, or never read,
// cannot use up its connections (file descriptors). Zero fields take the
// defaults of DefaultTimeouts.
type Timeouts struct {
	// ReadHeader bounds the reading of a request's headers.
	ReadHeader time.Duration
	// Read bounds the reading of a whole request, body included, from
	// its first byte.
	Read time.Duration
	// Write bounds an answer: from the end of the request's headers to
	// the last byte written. Streams (/api/events,
	// /api/transforms/stream) lift it and bound each write instead, by
	// StreamWrite.
	Write time.Duration
	// Idle bounds how long a kept-alive connection waits for its next
	// request.
	Idle time.Duration
	// StreamWrite bounds each write of a stream: a client that has not
	// read what was sent to it for that long loses its stream, and its
	// slot is free again.
	StreamWrite time.Duration
	// UnreadBody bounds how long the connection of a request answered
	// without reading its body (refused: 401, 403, 404, 405...) stays
	// open after the answer, to take in what the client is still sending;
	// then it is closed. The answer itself goes at once, with
	// Connection: close.
	UnreadBody time.Duration
}

// DefaultTimeouts are the timeouts used for zero fields of Timeouts.
var DefaultTimeouts = Timeouts{
	ReadHeader:  5 * time.Second,
	Read:        10 * time.Second,
	Write:       30 * time.Second,
	Idle:        60 * time.Second,
	StreamWrite: 10 * time.Second,
	UnreadBody:  time.Second,
}

// withDefaults returns t with its zero fields set from DefaultTimeouts.
func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	for _, f := range []struct{ v, d *time.Duration }{
		{&t.ReadHeader, &d.ReadHeader}, {&t.Read, &d.Read}, {&t.Write, &d.Write},
		{&t.Idle, &d.Idle}, {&t.StreamWrite, &d.StreamWrite}, {&t.UnreadBody, &d.UnreadBody},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return t
}

// NewServer returns an http.Server for h with the timeouts t (zero
// fields: DefaultTimeouts) and 64 KiB of headers at most. Listen serves
// the Inspector with one; a program that serves the Inspector itself
// (mounted under a prefix, or over TLS) should use one too, with the
// Inspector's Options.Timeouts, so that streams get the per-write
// deadlines they expect.
func NewServer(h http.Handler, t Timeouts) *http.Server {
	t = t.withDefaults()
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
	}
}

// A request that has a body gets a bodyGuard around its ResponseWriter:
// if the answer starts before the body was read to its end (a refusal
// such as 401, before any reading), the answer says Connection: close and
// the connection gets a read deadline of Timeouts.UnreadBody from then.
// Without it, net/http would read what is left of the body (up to 256 KB)
// for as long as the client takes to send it, before closing or reusing
// the connection; a client that never sends its body would hold the
// connection forever.
type bodyGuard struct {
	http.ResponseWriter
	body   *watchedBody
	grace  time.Duration
	wrote  bool
	closed bool // the connection is to close: the body was not read
}

// guardBody wraps w and r.Body if r has a body (a Content-Length other
// than 0, or a chunked one); it returns w unchanged otherwise.
func guardBody(w http.ResponseWriter, r *http.Request, grace time.Duration) http.ResponseWriter {
	if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
		return w
	}
	b := &watchedBody{ReadCloser: r.Body}
	r.Body = b
	return &bodyGuard{ResponseWriter: w, body: b, grace: grace}
}

// WriteHeader closes the connection after the answer if the body was not
// read to its end.
func (g *bodyGuard) WriteHeader(code int) {
	if !g.wrote {
		g.wrote = true
		if !g.body.eof.Load() {
			g.closed = true
			g.Header().Set("Connection", "close")
			_ = http.NewResponseController(g.ResponseWriter).SetReadDeadline(time.Now().Add(g.grace))
		}
	}
	g.ResponseWriter.WriteHeader(code)
}

// Write writes the body of the answer, its header first.
func (g *bodyGuard) Write(b []byte) (int, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	return g.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the underlying ResponseWriter.
func (g *bodyGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// watchedBody records that a request body was read to its end.
type watchedBody struct {
	io.ReadCloser
	eof atomic.Bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.eof.Store(true)
	}
	return n, err
}

// streamDeadlines prepares a long-lived answer (a stream) on w: the
// server's whole-request read deadline is lifted (net/http's background
// read would otherwise end the stream's context when it expires), and
// its write deadline replaced by one per write (see writeDeadline). A
// ResponseWriter that cannot set deadlines (a test recorder, a server of
// another kind) is left as it is.
func streamDeadlines(rc *http.ResponseController) {
	_ = rc.SetReadDeadline(time.Time{})
	_ = rc.SetWriteDeadline(time.Time{})
}
