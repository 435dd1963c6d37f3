package fleet

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ErrOpenServer is wrapped by StartServer's error for a server that
// would listen beyond loopback without authorization.
var ErrOpenServer = errors.New("a NATS server open to anyone")

// ServerOptions configure a NATS server started in this process
// (StartServer).
type ServerOptions struct {
	// Config, if not empty, is a nats-server configuration file: its
	// listen address, users, accounts, permissions, TLS and the rest, as
	// nats-server takes them (server.ProcessConfigFile). JetStream is
	// turned on whatever it says.
	Config string
	// Host and Port are where the server listens when Config gives no
	// address (port 0: a free one).
	Host string
	Port int
	// StoreDir keeps JetStream's files when Config names no store_dir.
	StoreDir string
	// Insecure lets a server listen beyond loopback without
	// authorization: anyone who reaches it may then create, change and
	// destroy every room, read them all, and write the snapshots hosts
	// resume. Without it such a server is refused (ErrOpenServer).
	Insecure bool
}

// Embedded is a NATS server started in this process.
type Embedded struct {
	*server.Server
	// Open is true when the server lets anyone in (no authorization, no
	// client certificates), and Exposed when it listens beyond loopback.
	Open, Exposed bool
	// Listen is the address it listens on.
	Listen string
}

// StartServer starts a NATS server with JetStream in this process, for a
// fleet's first host and for tests. Security is NATS's own: give it a
// configuration file (users, permissions, TLS; docs/scale.md has the
// fleet's). A server that would listen beyond loopback without
// authorization is refused unless opt.Insecure. Shut it down with its
// Shutdown method; ClientURL gives its address.
func StartServer(opt ServerOptions) (*Embedded, error) {
	o := &server.Options{}
	if opt.Config != "" {
		var err error
		if o, err = server.ProcessConfigFile(opt.Config); err != nil {
			return nil, fmt.Errorf("fleet: nats-server configuration: %w", err)
		}
	}
	if o.Host == "" {
		o.Host = opt.Host
	}
	if o.Port == 0 {
		o.Port = opt.Port
		if o.Port == 0 {
			o.Port = server.RANDOM_PORT
		}
	}
	if o.ServerName == "" {
		o.ServerName = "scenecs-embedded"
	}
	if o.StoreDir == "" {
		o.StoreDir = opt.StoreDir
	}
	o.JetStream, o.NoSigs = true, true
	o.NoLog = o.LogFile == "" // the configuration's log file, or nothing

	e := &Embedded{Open: !authorized(o), Exposed: !loopback(o.Host)}
	e.Listen = net.JoinHostPort(o.Host, strconv.Itoa(o.Port))
	if e.Open && e.Exposed && !opt.Insecure {
		return nil, fmt.Errorf("fleet: %w: the NATS server would listen on %s, beyond loopback, without authorization: anyone who reaches it could create, change and destroy every room, read them all, and write snapshots that crash the hosts resuming them; give it users and permissions in a nats-server configuration file (docs/scale.md), listen on 127.0.0.1, or take the risk knowingly (insecure)",
			ErrOpenServer, e.Listen)
	}
	s, err := server.NewServer(o)
	if err != nil {
		return nil, fmt.Errorf("fleet: nats server: %w", err)
	}
	if !o.NoLog {
		s.ConfigureLogger()
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("fleet: nats server on %s not ready after 10 s", e.Listen)
	}
	e.Server = s
	if a, ok := s.Addr().(*net.TCPAddr); ok {
		e.Listen = net.JoinHostPort(o.Host, strconv.Itoa(a.Port))
	}
	return e, nil
}

// RunServer starts a NATS server with JetStream in this process, without
// authorization, on host:port (port 0: a free one), keeping JetStream's
// files under dir: StartServer with these alone (a host beyond loopback
// is refused). For tests and a fleet on one machine.
func RunServer(host string, port int, dir string) (*server.Server, error) {
	e, err := StartServer(ServerOptions{Host: host, Port: port, StoreDir: dir})
	if err != nil {
		return nil, err
	}
	return e.Server, nil
}

// authorized reports whether a server of o wants clients to
// authenticate: users, nkeys, a token, trusted operators (JWT), an auth
// callout, or client certificates.
func authorized(o *server.Options) bool {
	return len(o.Users) > 0 || len(o.Nkeys) > 0 || o.Username != "" || o.Authorization != "" ||
		len(o.TrustedOperators) > 0 || len(o.TrustedKeys) > 0 || o.AuthCallout != nil ||
		o.CustomClientAuthentication != nil || o.TLSVerify
}

// loopback reports whether host (a listen address's host) is reachable
// from this machine alone: a loopback address, or a name all of whose
// addresses are. Empty and unspecified addresses (every interface) are
// not.
func loopback(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	if host == "" {
		return false
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false
		}
	}
	return true
}
