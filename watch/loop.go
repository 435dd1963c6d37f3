package watch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// The event loop. run waits for what may be a save: a file system event,
// a poll, a retry of missing directories and unreadable files. Each marks
// files pending; a pending file is read once it has been quiet for
// Settle, and judged then if its save looks whole (see quick); otherwise
// it is judged once it has been quiet for Debounce, or has waited
// MaxDelay. If its content changed it joins the saves not yet received by
// the reader, sent on Changes when the reader is ready.

// loop is the state of one watcher's event loop, owned by its goroutine.
type loop struct {
	w       *Watcher
	pending map[string]*pend // files waiting to be judged
	timer   *time.Timer      // fires when the first pending file is due
	out     []string         // saves not yet received by the reader
	inOut   map[string]bool  // the files in out
	polled  map[string][32]byte
}

// pend is the debounce of one file: its first and last event, and
// whether its content was read since the last event and did not look
// whole (it then waits for Debounce, or for the next event).
type pend struct {
	first, last time.Time
	doubted     bool
}

// run is the watcher's loop: with fw, on file system events; without, by
// polling. It ends with ctx, or when the file system watcher fails.
func (w *Watcher) run(ctx context.Context) {
	defer close(w.done)
	fw := w.fw
	var events <-chan fsnotify.Event
	var errs <-chan error
	if fw != nil {
		defer w.stopEvents(fw)
		events, errs = fw.Events, fw.Errors
	}
	l := &loop{w: w, pending: map[string]*pend{}, inOut: map[string]bool{},
		polled: map[string][32]byte{}, timer: time.NewTimer(time.Hour)}
	l.timer.Stop()
	defer l.timer.Stop()
	// Retries look for missing directories (with events) and at files
	// that could not be read (both modes: a chmod makes no poll change
	// visible before the file is read again).
	retry := time.NewTicker(retryInterval)
	defer retry.Stop()
	var poll <-chan time.Time
	if fw == nil {
		t := time.NewTicker(w.opt.Poll)
		defer t.Stop()
		poll = t.C
	}
	for {
		var send chan<- []string
		if len(l.out) > 0 {
			send = w.changes
		}
		select {
		case <-ctx.Done():
			return
		case send <- l.out:
			l.out, l.inOut = nil, map[string]bool{}
			continue
		case err, ok := <-errs:
			if !ok {
				return
			}
			l.watchError(err)
		case ev, ok := <-events:
			if !ok {
				return
			}
			if !l.event(ev) {
				continue
			}
		case <-retry.C:
			l.retry()
		case <-poll:
			l.poll()
		case <-l.timer.C:
			l.due()
		}
		l.rearm()
	}
}

// mark makes the file pending, or restarts its quiet time.
func (l *loop) mark(f string) {
	now := time.Now()
	if p, ok := l.pending[f]; ok {
		p.last, p.doubted = now, false
	} else {
		l.pending[f] = &pend{first: now, last: now}
	}
}

// markAll makes every watched file pending.
func (l *loop) markAll() {
	for f := range l.w.fileSet() {
		l.mark(f)
	}
}

// rearm sets the timer to the time the first pending file is due.
func (l *loop) rearm() {
	if len(l.pending) == 0 {
		l.timer.Stop()
		return
	}
	var next time.Time
	for _, p := range l.pending {
		due := p.last.Add(l.w.opt.Settle)
		if p.doubted {
			due = p.last.Add(l.w.opt.Debounce)
		}
		if limit := p.first.Add(l.w.opt.MaxDelay); limit.Before(due) {
			due = limit
		}
		if next.IsZero() || due.Before(next) {
			next = due
		}
	}
	l.timer.Reset(time.Until(next))
}

// watchError passes an error of the file system watcher on to Errors; if
// events were lost, every file is looked at.
func (l *loop) watchError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		l.markAll()
	}
	select {
	case l.w.errs <- err:
	default:
	}
}

// event marks the files a file system event may have saved. It reports
// false for an event that changes nothing (a Chmod of a readable file).
func (l *loop) event(ev fsnotify.Event) bool {
	w := l.w
	name := filepath.Clean(ev.Name)
	if ev.Op == fsnotify.Chmod {
		// A file that could not be read may be readable now, with a
		// save made meanwhile.
		if w.isBad(name) {
			l.mark(name)
			return true
		}
		return false
	}
	files := w.fileSet()
	if files[name] {
		l.mark(name)
	}
	if ev.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
		w.forget(name) // if a watched directory went away
	}
	if ev.Op&fsnotify.Create != 0 {
		// A directory holding watched files came (back): watch it, and
		// look at its files (written before the watch).
		back := false
		for f := range files {
			if filepath.Dir(f) == name {
				back = true
				l.mark(f)
			}
		}
		if back {
			w.forget(name)
			w.ensure()
		}
	}
	return true
}

// retry watches directories that came back while unwatched, looking at
// their files, looks again at the files that could not be read, and
// reports the files judged empty that are still empty MaxDelay later (an
// editor writes its save long before; this one was saved empty).
func (l *loop) retry() {
	if l.w.ensure() {
		l.markAll()
	}
	for _, f := range l.w.badFiles() {
		if _, ok := l.pending[f]; !ok {
			l.mark(f)
		}
	}
	for _, f := range l.w.emptyDue(l.w.opt.MaxDelay) {
		if _, pending := l.pending[f]; pending {
			continue // written meanwhile: judged when due
		}
		if data, empty := l.w.look(f); empty {
			l.w.reportEmpty(f)
		} else if data != nil {
			l.mark(f) // content came without an event: judge it
		}
	}
}

// poll reads every file and marks those whose content differs from what
// the last poll saw and from the last judged.
func (l *loop) poll() {
	for f := range l.w.fileSet() {
		data, empty := l.w.look(f)
		if empty && !l.w.isEmpty(f) {
			l.mark(f) // judged when due, and reported if it stays empty
		}
		if data == nil {
			continue
		}
		h := sha256.Sum256(data)
		if old, seen := l.polled[f]; seen && old == h {
			continue
		}
		l.polled[f] = h
		if last, known := l.w.lastJudged(f); !known || !bytes.Equal(last, data) {
			l.mark(f)
		}
	}
}

// due judges the pending files that are due: quiet for Settle and
// looking whole, or quiet for Debounce, or waiting for MaxDelay. Those
// whose content changed join the saves for the reader.
func (l *loop) due() {
	now := time.Now()
	opt := &l.w.opt
	for f, p := range l.pending {
		quiet := now.Sub(p.last)
		var judged, changed bool
		switch {
		case quiet >= opt.Debounce || now.Sub(p.first) >= opt.MaxDelay:
			judged, changed = true, l.w.changed(f)
		case quiet >= opt.Settle && !p.doubted:
			judged, changed = l.w.quick(f)
			p.doubted = !judged
		}
		if !judged {
			continue
		}
		delete(l.pending, f)
		if changed && !l.inOut[f] {
			l.inOut[f] = true
			l.out = append(l.out, f)
		}
	}
}
