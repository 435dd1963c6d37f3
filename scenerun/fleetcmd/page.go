package fleetcmd

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/scenecs/scenecs/inspect"
	"github.com/scenecs/scenecs/rooms"
	"github.com/scenecs/scenecs/rooms/fleet"
)

// fleetPage is a host's page (scene-run host -inspect): the rooms of the
// whole fleet, each linked to its inspector under /rooms/ID/. This
// host's rooms are served here; any other's API goes through NATS (a
// fleet.Proxy), its page's files are served here.
type fleetPage struct {
	h     *fleet.Host
	cl    *fleet.Client
	proxy *fleet.Proxy
	token string   // the page's own token: "/" and changes through NATS want it
	hosts []string // the Host header values the page accepts
}

// pageTemplate lists the fleet's rooms.
var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<meta charset="utf-8"><title>rooms of {{.Host}}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}td,th{padding:.2em .8em;text-align:left}td.n{text-align:right}</style>
<h1>Rooms</h1>
<p>This page is host <b>{{.Host}}</b>'s; {{len .Hosts}} live host(s): {{range .Hosts}}{{if .Inspect}}<a href="{{.Inspect}}/">{{.ID}}</a>{{else}}{{.ID}}{{end}} ({{.Rooms}}) {{end}}</p>
<table><tr><th>id</th><th>host</th><th>scene</th><th>tick</th><th>entities</th><th>ticks/s</th><th></th></tr>
{{range .Rooms}}<tr><td>{{.ID}}</td><td>{{.Host}}</td><td>{{.Scene}}</td><td class=n>{{.Tick}}</td><td class=n>{{.Entities}}</td><td class=n>{{printf "%.0f" .TicksPerSec}}</td>
<td>{{if .Link}}<a href="{{.Link}}">inspect</a>{{else if .Quarantine}}quarantined: {{.Quarantine}}{{end}}</td></tr>
{{end}}</table>
`))

// pageRoom is a row of the page.
type pageRoom struct {
	fleet.Listing
	Link string
}

func (p *fleetPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !slices.Contains(p.hosts, r.Host) {
		http.Error(w, fmt.Sprintf("host %q is not this page's own", r.Host), http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !p.originOK(o) {
		http.Error(w, fmt.Sprintf("cross-origin request from %q refused", o), http.StatusForbidden)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/rooms/"); ok {
		p.serveRoom(w, r, rest)
		return
	}
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	if !p.hasToken(r) {
		http.Error(w, "this page opens every room of the fleet: it needs the page's own token (?token=TOKEN, as printed by scene-run host)", http.StatusUnauthorized)
		return
	}
	p.list(w, r)
}

// originOK reports whether an Origin header names the page's server.
func (p *fleetPage) originOK(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && (u.Path == "" || u.Path == "/") && slices.Contains(p.hosts, u.Host)
}

// hasToken reports whether r carries the page's token (Authorization:
// Bearer TOKEN, or ?token=TOKEN).
func (p *fleetPage) hasToken(r *http.Request) bool {
	got := r.URL.Query().Get("token")
	if a := r.Header.Get("Authorization"); a != "" {
		scheme, tok, _ := strings.Cut(a, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		got = strings.TrimSpace(tok)
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(p.token)) == 1
}

// list answers "/": the fleet's rooms, each with its link.
func (p *fleetPage) list(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	ls, err := p.cl.List(ctx)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hs, err := p.cl.Hosts(ctx)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	rows := make([]pageRoom, len(ls))
	for i, l := range ls {
		rows[i].Listing = l
		if l.Quarantine == "" {
			rows[i].Link = "rooms/" + url.PathEscape(l.ID) + "/?token=" + p.token
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTemplate.Execute(w, struct {
		Host  string
		Hosts []fleet.HostInfo
		Rooms []pageRoom
	}{p.h.ID(), hs, rows})
}

// serveRoom serves the inspector of the room named by rest ("ID/..."):
// a room of this host's by its own inspector (the page's token stands
// for the room's), any other's API through NATS, and the page's files
// from here. Changes through NATS want the page's token.
func (p *fleetPage) serveRoom(w http.ResponseWriter, r *http.Request, rest string) {
	esc, _, slash := strings.Cut(rest, "/")
	id, err := url.PathUnescape(esc)
	if err != nil || rooms.CheckID(id) != nil {
		http.Error(w, fmt.Sprintf("no room %q", esc), http.StatusNotFound)
		return
	}
	if !slash { // the page's relative links want the slash
		u := *r.URL
		u.Path, u.RawPath = u.Path+"/", ""
		http.Redirect(w, r, u.String(), http.StatusMovedPermanently)
		return
	}
	prefix := "/rooms/" + id
	if room := p.h.Local().Room(id); room != nil {
		if p.hasToken(r) {
			r.Header.Set("Authorization", "Bearer "+room.Token())
		}
		http.StripPrefix(prefix, room).ServeHTTP(w, r)
		return
	}
	if !strings.HasPrefix(r.URL.Path, prefix+"/api/") {
		http.StripPrefix(prefix, inspect.Files()).ServeHTTP(w, r)
		return
	}
	if r.Method != http.MethodGet && !p.hasToken(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="scenecs host page"`)
		http.Error(w, "a change to a room through this page needs the page's token (Authorization: Bearer TOKEN, or ?token=TOKEN)", http.StatusUnauthorized)
		return
	}
	http.StripPrefix(prefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.proxy.ServeRoom(w, r, id)
	})).ServeHTTP(w, r)
}

// listenPage listens on addr for a host's page; it returns the listener,
// the page's URL and the Host values it answers to.
func listenPage(addr string) (net.Listener, string, []string, error) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, "", nil, usagef("-inspect %q: want host:port, such as 127.0.0.1:0 (a free port)", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", nil, err
	}
	a := ln.Addr().(*net.TCPAddr)
	hosts := []string{ln.Addr().String(), fmt.Sprintf("localhost:%d", a.Port), fmt.Sprintf("127.0.0.1:%d", a.Port)}
	if h, p, _ := net.SplitHostPort(addr); p != "0" {
		hosts = append(hosts, net.JoinHostPort(h, p))
	}
	return ln, "http://" + ln.Addr().String(), hosts, nil
}

// servePage serves the host's page on ln until ctx ends, and prints its
// URL with its token.
func (c *cmd) servePage(ctx context.Context, ln net.Listener, pageURL string, hosts []string, h *fleet.Host, cl *fleet.Client, proxy *fleet.Proxy, stdout io.Writer) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	p := &fleetPage{h: h, cl: cl, proxy: proxy, token: hex.EncodeToString(b[:]), hosts: hosts}
	srv := inspect.NewServer(p, inspect.Timeouts{})
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	fmt.Fprintf(stdout, "inspect: %s/?token=%s\n", pageURL, p.token)
}
