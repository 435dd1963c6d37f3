package inspect

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
)

// The web inspector: static files embedded in the binary (web/), served
// by the same handler as the API. GET / answers the page to a browser
// (a request that accepts text/html) and the list of endpoints to
// anything else (curl); the page's scripts, styles and the vendored
// three.js are served under their own paths (/app.js, /third_party/...).

//go:embed web
var webFiles embed.FS

// webFS is web/ as the root of the served files.
var webFS = func() fs.FS {
	sub, err := fs.Sub(webFiles, "web")
	if err != nil {
		panic("inspect: embedded web files: " + err.Error())
	}
	return sub
}()

// contentTypes are the types of the files the page is made of; a file
// of another kind is not served. An explicit table, not the system's
// MIME database, so that a module script is always served as JavaScript
// (browsers refuse modules served otherwise).
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".png":  "image/png",
	".svg":  "image/svg+xml",
	".md":   "text/plain; charset=utf-8",
	".txt":  "text/plain; charset=utf-8",
}

// webFile is one embedded file ready to serve.
type webFile struct {
	body  []byte
	ctype string
	etag  string
}

var (
	webOnce  sync.Once
	webCache map[string]*webFile
)

// webFileAt returns the embedded file served at the URL path p ("/app.js"),
// nil if there is none. Files are read and hashed once.
func webFileAt(p string) *webFile {
	webOnce.Do(func() {
		webCache = map[string]*webFile{}
		_ = fs.WalkDir(webFS, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			ct, ok := contentTypes[path.Ext(name)]
			if !ok {
				return nil
			}
			b, err := fs.ReadFile(webFS, name)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			webCache["/"+name] = &webFile{body: b, ctype: ct, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
			return nil
		})
	})
	return webCache[p]
}

// wantsPage reports whether a GET / comes from a browser: one that
// accepts HTML gets the page, anything else (curl) the endpoint list.
func wantsPage(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

// fileRoute routes the paths no endpoint takes (see routes) to the
// page's static files (GET, HEAD); any other path is a 404.
func fileRoute(r *http.Request) (http.HandlerFunc, bool) {
	p := r.URL.Path
	f := webFileAt(p)
	if f == nil || p == "/index.html" || strings.HasPrefix(p, "/api/") {
		return refuse(http.StatusNotFound, fmt.Sprintf("inspect: no endpoint %s (see GET / for the list)", p))
	}
	serve := func(w http.ResponseWriter, r *http.Request) { f.serve(w, r) }
	return byMethod(r, handlers{"GET": serve, "HEAD": serve})
}

// page answers GET / with the inspector's page. Its Content Security
// Policy lets it load and reach only this server, and run no inline
// script but its import map.
func page(w http.ResponseWriter, r *http.Request) {
	f := webFileAt("/index.html")
	w.Header().Set("Content-Security-Policy", pagePolicy(f.body))
	f.serve(w, r)
}

// Files returns a handler of the inspector's page and its files alone,
// as an Inspector serves them: GET (or HEAD) / answers a browser with
// the page and anything else with the list of endpoints; the page's
// files are served under their paths; anything else is a 404 (405 for
// another method). It checks no Host and serves no API: it is for a
// server that has the API answered elsewhere, such as a page that
// reaches a room on another machine through NATS (scene-run host
// -inspect), and does its own checks.
func Files() http.Handler { return http.HandlerFunc(serveFiles) }

// serveFiles is Files' handler.
func serveFiles(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("inspect: %s does not take %s (allowed: GET, HEAD)", r.URL.Path, r.Method))
		return
	}
	p := r.URL.Path
	if p == "/" || p == "" {
		index(w, r)
		return
	}
	f := webFileAt(p)
	if f == nil || p == "/index.html" {
		writeError(w, http.StatusNotFound, fmt.Sprintf("inspect: no file %s", p))
		return
	}
	f.serve(w, r)
}

// pagePolicy returns the page's Content Security Policy: its import map
// (an inline script) is allowed by its hash.
func pagePolicy(page []byte) string {
	script := "'self'"
	const open, end = `<script type="importmap">`, `</script>`
	if _, rest, ok := bytes.Cut(page, []byte(open)); ok {
		if body, _, ok := bytes.Cut(rest, []byte(end)); ok {
			sum := sha256.Sum256(body)
			script += " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		}
	}
	return "default-src 'self'; script-src " + script + "; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// serve writes the file. Browsers revalidate every time (no-cache) and
// get 304 while the file is the same, so a new binary's files are never
// shadowed by old ones.
func (f *webFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Header.Get("If-None-Match") == f.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	h.Set("Content-Length", strconv.Itoa(len(f.body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(f.body)
}
