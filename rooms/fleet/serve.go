package fleet

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// The verb "serve" carries any request of the inspection API, streams
// included, and answers of any size (docs/scale.md, "The inspector
// through NATS"). The request is a NATS request to PREFIX.room.ID.serve:
//
//	Scenecs-Method: GET
//	Scenecs-Path: /api/events?events=hit        (the target, with its query)
//	Scenecs-Inbox: _INBOX.X.7                   (where a streamed body goes)
//	Scenecs-Keepalive: 1s                       (the reader's keep-alive interval)
//	data: the request's body
//
// The reply (the head) has the HTTP status in Status and the answer's
// HTTP headers. An answer that was complete when it was made and fits
// in one message has its body as the reply's data, and that is all.
// Otherwise (a stream, or a large answer) the head carries
// Scenecs-Control, a subject the room's host serves (PREFIX.control.TOKEN),
// and the body follows on the inbox as messages numbered by Scenecs-Seq
// (1, 2, ...), each at
// most one message's size (a flush of the stream ends a message), an
// empty one every keep-alive interval when there is nothing to send,
// and a last one with Scenecs-End. The reader sends Scenecs-Ack (the
// bytes it has delivered) to the control subject at least every
// keep-alive interval, and Scenecs-Cancel when its client has gone. The
// host sends at most streamWindow bytes beyond those acknowledged (a
// stream's writes wait, under the inspector's per-write deadline), and
// ends the stream after keepAliveMisses intervals without word from
// the reader; the reader gives up after as many without a message.

// The headers of the verb "serve".
const (
	hdrMethod    = "Scenecs-Method"
	hdrPath      = "Scenecs-Path"
	hdrInbox     = "Scenecs-Inbox"
	hdrKeepAlive = "Scenecs-Keepalive"
	hdrControl   = "Scenecs-Control"
	hdrSeq       = "Scenecs-Seq"
	hdrEnd       = "Scenecs-End"
	hdrAck       = "Scenecs-Ack"
	hdrCancel    = "Scenecs-Cancel"
)

// keepAliveMisses is how many keep-alive intervals either side of a
// stream waits without word from the other before it gives up.
const keepAliveMisses = 5

// Bounds of a keep-alive interval a reader may ask for.
const (
	minKeepAlive     = 10 * time.Millisecond
	maxKeepAlive     = 30 * time.Second
	defaultKeepAlive = time.Second
)

// headerRoom is the room left in a message for its headers.
const headerRoom = 8 << 10

// chunkLimit, if above zero, bounds the messages of a streamed body
// below what the server allows (tests).
var chunkLimit int

// msgLimit returns the largest body one message may carry on nc.
func msgLimit(nc *nats.Conn) int {
	n := int(nc.MaxPayload()) - headerRoom
	if chunkLimit > 0 && chunkLimit < n {
		n = chunkLimit
	}
	return max(n, 1024)
}

// streamWindow returns how many bytes a stream may send beyond those
// acknowledged: four messages.
func streamWindow(limit int) int64 { return 4 * int64(limit) }

// Streams returns the number of answers this host is sending through
// NATS in several messages (streams, and large answers) at the moment.
func (h *Host) Streams() int { return int(h.streams.Load()) }

// serve answers the verb "serve" on a goroutine of its own: a stream
// may go on for hours.
func (h *Host) serve(o *owned, m *nats.Msg) {
	method, target, inbox := m.Header.Get(hdrMethod), m.Header.Get(hdrPath), m.Header.Get(hdrInbox)
	switch {
	case m.Reply == "":
		return
	case method == "" || !strings.HasPrefix(target, "/") || inbox == "":
		respondErr(m, http.StatusBadRequest, fmt.Sprintf("fleet: room %s: serve: want the headers %s, %s (an absolute path) and %s", o.room.ID(), hdrMethod, hdrPath, hdrInbox))
		return
	}
	ka, err := time.ParseDuration(m.Header.Get(hdrKeepAlive))
	if err != nil {
		ka = defaultKeepAlive
	}
	ctx, cancel := context.WithCancel(context.Background())
	w := &streamWriter{nc: h.nc, req: m, inbox: inbox, control: h.n.control, keepAlive: min(max(ka, minKeepAlive), maxKeepAlive),
		limit: msgLimit(h.nc), ctx: ctx, cancel: cancel, header: http.Header{}, wake: make(chan struct{}, 1),
		stop: make(chan struct{}), open: &h.streams}
	w.window = streamWindow(w.limit)
	go func() {
		defer cancel()
		o.room.Serve(ctx, w, method, target, m.Data)
		w.finish()
	}()
}

// streamWriter is the http.ResponseWriter the verb "serve" answers
// into: the head goes as the request's reply, a streamed body to the
// reader's inbox, in order.
type streamWriter struct {
	nc        *nats.Conn
	req       *nats.Msg
	inbox     string
	control   string // the prefix of control subjects: PREFIX.control.
	keepAlive time.Duration
	limit     int   // bytes of body per message
	window    int64 // bytes sent beyond those acknowledged, at most
	ctx       context.Context
	cancel    context.CancelFunc
	open      *atomic.Int64 // the host's count of streamed answers

	// Used by the handler's goroutine alone.
	header   http.Header
	status   int
	buf      bytes.Buffer
	streamed bool // the head went with a control subject
	ctl      *nats.Subscription
	stop     chan struct{} // closed when the answer is over: the keep-alives stop
	failed   error

	mu       sync.Mutex // guards what follows, and the order of the messages
	seq      int64
	sent     int64
	lastSent time.Time
	deadline time.Time

	acked atomic.Int64 // bytes the reader delivered, as it last said
	heard atomic.Int64 // when the reader last said anything (UnixNano)
	wake  chan struct{}
}

func (w *streamWriter) Header() http.Header { return w.header }

func (w *streamWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
}

// Write buffers b; a full message's worth goes at once (the head first).
func (w *streamWriter) Write(b []byte) (int, error) {
	if w.failed != nil {
		return 0, w.failed
	}
	w.WriteHeader(http.StatusOK)
	w.buf.Write(b)
	if w.buf.Len() >= w.limit {
		if err := w.send(false); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// FlushError sends what is buffered (the head first): a stream's flush.
func (w *streamWriter) FlushError() error {
	if w.failed != nil {
		return w.failed
	}
	w.WriteHeader(http.StatusOK)
	return w.send(true)
}

// SetWriteDeadline bounds the wait of the writes to come for the
// reader's acknowledgements; a time past ends the wait in progress.
func (w *streamWriter) SetWriteDeadline(t time.Time) error {
	w.mu.Lock()
	w.deadline = t
	w.mu.Unlock()
	w.signal()
	return nil
}

func (w *streamWriter) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// send sends the head if it has not gone, then the buffer in messages:
// all of it, or (all false) the full messages' worth.
func (w *streamWriter) send(all bool) error {
	if !w.streamed {
		if err := w.startStream(); err != nil {
			return w.fail(err)
		}
	}
	for w.buf.Len() >= w.limit || all && w.buf.Len() > 0 {
		if err := w.chunk(w.buf.Next(min(w.buf.Len(), w.limit)), ""); err != nil {
			return w.fail(err)
		}
	}
	if w.buf.Len() == 0 {
		w.buf.Reset()
	}
	return nil
}

func (w *streamWriter) fail(err error) error {
	w.failed = err
	w.cancel()
	return err
}

// startStream subscribes the control subject, sends the head naming it,
// and starts the keep-alives.
func (w *streamWriter) startStream() error {
	w.streamed = true
	w.open.Add(1)
	w.heard.Store(time.Now().UnixNano())
	// A subject of the fleet's, not an inbox: a reader needs the right to
	// publish on PREFIX.control.>, not on every inbox.
	sub, err := w.nc.Subscribe(w.control+strings.TrimPrefix(nats.NewInbox(), nats.InboxPrefix), w.onControl)
	if err != nil {
		return err
	}
	w.ctl = sub
	if err := w.head(sub.Subject, nil); err != nil {
		return err
	}
	go w.keepAlives()
	return nil
}

// head answers the request with the status and headers, and either the
// control subject of a streamed body or the whole body.
func (w *streamWriter) head(control string, body []byte) error {
	r := nats.NewMsg(w.req.Reply)
	for k, vs := range w.header {
		if !skipHeader(k) {
			r.Header[k] = vs
		}
	}
	if w.status == 0 {
		w.status = http.StatusOK
	}
	r.Header.Set(statusHeader, strconv.Itoa(w.status))
	if control != "" {
		r.Header.Set(hdrControl, control)
	}
	r.Data = body
	return w.req.RespondMsg(r)
}

// skipHeader reports whether an HTTP header of an answer stays out of
// its head: those of one connection, the length (a streamed body's is
// the relay's to say), and the protocol's own.
func skipHeader(k string) bool {
	switch http.CanonicalHeaderKey(k) {
	case "Connection", "Content-Length", "Keep-Alive", "Transfer-Encoding", "Status", "Description":
		return true
	}
	return strings.HasPrefix(http.CanonicalHeaderKey(k), "Scenecs-")
}

// onControl takes a message of the reader: an acknowledgement, a
// keep-alive, a cancel.
func (w *streamWriter) onControl(m *nats.Msg) {
	w.heard.Store(time.Now().UnixNano())
	if n, err := strconv.ParseInt(m.Header.Get(hdrAck), 10, 64); err == nil && n > w.acked.Load() {
		w.acked.Store(n)
	}
	if m.Header.Get(hdrCancel) != "" {
		w.cancel()
	}
	w.signal()
}

// chunk sends one message of the body (end: the last, with its reason),
// once the window has room for it.
func (w *streamWriter) chunk(b []byte, end string) error {
	if err := w.waitWindow(len(b)); err != nil {
		return err
	}
	return w.publish(b, end)
}

// publish sends the next message of the body.
func (w *streamWriter) publish(b []byte, end string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seq++
	m := nats.NewMsg(w.inbox)
	m.Header.Set(hdrSeq, strconv.FormatInt(w.seq, 10))
	if end != "" {
		m.Header.Set(hdrEnd, end)
	}
	m.Data = b
	if err := w.nc.PublishMsg(m); err != nil {
		return err
	}
	w.sent += int64(len(b))
	w.lastSent = time.Now()
	return nil
}

// waitWindow waits until n more bytes fit in the window, the write's
// deadline passes or the answer is cancelled.
func (w *streamWriter) waitWindow(n int) error {
	for {
		w.mu.Lock()
		inflight, deadline := w.sent-w.acked.Load(), w.deadline
		w.mu.Unlock()
		if inflight <= 0 || inflight+int64(n) <= w.window {
			return nil
		}
		var timeout <-chan time.Time
		if !deadline.IsZero() {
			d := time.Until(deadline)
			if d <= 0 {
				return os.ErrDeadlineExceeded
			}
			t := time.NewTimer(d)
			timeout = t.C
			defer t.Stop()
		}
		select {
		case <-w.wake:
		case <-timeout:
			return os.ErrDeadlineExceeded
		case <-w.ctx.Done():
			return w.ctx.Err()
		}
	}
}

// keepAlives sends an empty message when nothing went for a keep-alive
// interval, and cancels the answer when the reader has said nothing for
// keepAliveMisses of them.
func (w *streamWriter) keepAlives() {
	t := time.NewTicker(w.keepAlive)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-w.ctx.Done():
			return
		case now := <-t.C:
			if now.Sub(time.Unix(0, w.heard.Load())) > keepAliveMisses*w.keepAlive {
				w.cancel()
				return
			}
			w.mu.Lock()
			idle := now.Sub(w.lastSent) >= w.keepAlive
			w.mu.Unlock()
			if idle {
				_ = w.publish(nil, "")
			}
		}
	}
}

// finish ends the answer once the handler has returned: the whole answer
// as the reply if it fits in one, else the rest of the body and the end.
func (w *streamWriter) finish() {
	defer func() {
		close(w.stop)
		if w.ctl != nil {
			_ = w.ctl.Unsubscribe()
		}
		if w.streamed {
			w.open.Add(-1)
		}
	}()
	if !w.streamed && w.failed == nil && w.buf.Len() <= w.limit {
		_ = w.head("", w.buf.Bytes())
		return
	}
	err := w.failed
	if err == nil {
		err = w.send(true)
	}
	if !w.streamed {
		return
	}
	end := "done"
	switch {
	case errors.Is(err, context.Canceled):
		end = "cancelled"
	case err != nil:
		end = err.Error()
	}
	_ = w.publish(nil, end)
}
