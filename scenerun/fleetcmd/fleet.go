package fleetcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	neturl "net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/rooms"
	"github.com/scenecs/scenecs/rooms/fleet"
	"github.com/scenecs/scenecs/scenerun"
)

const hostUsage = `Usage: {prog} host [-nats URL] [-nats-config FILE] [flags]

Runs a room host: rooms of scenes, created and reached through NATS
(docs/rooms.md). With -nats it joins the fleet on that NATS server (a
secured one as nats://USER:PASSWORD@HOST:PORT, or with -creds FILE);
without, it starts a NATS server with JetStream in this process on
-listen and prints its URL ("nats: URL"), so one command runs the whole
thing on one machine. -nats-config FILE starts that server from a
nats-server configuration file (users, permissions, TLS: docs/scale.md
has the fleet's); the host joins it as the user of -nats
(nats://USER:PASSWORD@, its address unused) or -creds. A server without
authorization listens on loopback only, unless -insecure. The host
prints "host ID" once it serves, and runs until Ctrl-C or SIGTERM, when
it snapshots its rooms and hands them to the other hosts. It refuses an
-id a live host has. With -inspect ADDR it serves a page listing the
rooms of every host, each opening its inspector here (another host's
room through NATS, streams included), and prints "inspect: URL".

Flags:
`

const roomsUsage = `Usage:
  {prog} rooms [-nats URL] [-creds FILE] [-json]    list the rooms of the fleet
  {prog} rooms [-nats URL] create [-hz N] [-seed N] [-host H] ID SCENE
  {prog} rooms [-nats URL] destroy ID
  {prog} rooms [-nats URL] resume ID                lift a quarantined room's quarantine
  {prog} rooms [-nats URL] ask ID VERB [PAYLOAD]

SCENE is a scene file here (its bytes are sent; no includes), or else
the name of a scene in the hosts' -scenes directory (default: the
embedded scenes). VERB is one of scene, query, get, set, emit, step,
pause, play, stats, components, info, snapshot, destroy, http
(docs/rooms.md); the answer is printed as the room gives it. A room
that failed, or stopped host after host, is quarantined: listed with
why, resumed by no host until "resume".

Flags:
`

// hostFlags are the flags of "host" beyond fleet.Options.
type hostFlags struct {
	url, config, creds, listen, store, dir, inspect string
	insecure                                        bool
}

// parseHost parses the flags of "host" into opt and hf.
func (c *cmd) parseHost(args []string, opt *fleet.Options, hf *hostFlags) error {
	fs := c.newFlags("host", hostUsage)
	fs.StringVar(&hf.url, "nats", "", "the fleet's NATS `URL`, nats://USER:PASSWORD@HOST:PORT for a user (empty: start a NATS server in this process; with -nats-config, nats://USER:PASSWORD@ is the user the host joins it as)")
	fs.StringVar(&hf.config, "nats-config", "", "start the NATS server in this process from this nats-server configuration `file` (users, permissions, TLS)")
	fs.StringVar(&hf.creds, "creds", "", "a NATS credentials `file` to join the fleet's NATS with")
	fs.StringVar(&hf.listen, "listen", "127.0.0.1:4222", "the `address` of the NATS server started here, where its configuration gives none")
	fs.StringVar(&hf.store, "store", "", "the `directory` of the JetStream files of the NATS server started here (default: a temporary directory)")
	fs.BoolVar(&hf.insecure, "insecure", false, "let the NATS server started here listen beyond loopback without authorization: anyone who reaches it owns every room")
	fs.StringVar(&opt.ID, "id", "", "the host's `id` (default: the machine's name and a random suffix); refused while a live host has it")
	fs.StringVar(&hf.dir, "scenes", "", "the `directory` create requests name scenes in (default: the embedded scenes)")
	scenerun.IntervalVar(fs, &opt.Heartbeat, "heartbeat", time.Second, "", "how often the host says it is alive (an `interval`)")
	scenerun.IntervalVar(fs, &opt.DeadAfter, "dead-after", 3*time.Second, "", "how long (an `interval`) a silent host counts as alive")
	scenerun.IntervalVar(fs, &opt.SnapshotEvery, "snapshot", 2*time.Second, "", "how often (an `interval`) each room is snapshotted: at most this much is lost with a host")
	fs.IntVar(&opt.Replicas, "replicas", 1, "copies JetStream keeps of the directory and snapshots: 1 on one server, 3 on a cluster (`n` in 1..5, the same on every host)")
	fs.IntVar(&opt.Rooms.MaxRooms, "max-rooms", rooms.DefaultMaxRooms, "the most rooms this host runs (`n`); a create beyond goes to another host")
	fs.IntVar(&opt.Rooms.MaxEntities, "max-entities", rooms.DefaultMaxEntities, "each room's entity budget (`n`): a scene or snapshot of more is refused, spawners stop at it")
	scenerun.IntervalVar(fs, &opt.Rooms.HangAfter, "hang-after", rooms.DefaultHangAfter, "", "how long (an `interval`) a room may stay in one tick before it is given up as hung and quarantined")
	fs.IntVar(&opt.MaxFailures, "max-failures", 3, "failed starts in a row (its host died while it was on probation) that quarantine a room (`n`)")
	scenerun.IntervalVar(fs, &opt.Probation, "probation", 30*time.Second, "", "how long (an `interval`) a room started on a host is on trial")
	fs.StringVar(&hf.inspect, "inspect", "", "serve a page of the fleet's rooms on `addr` (host:port), each opening its inspector, and print its URL")
	if err := c.env.Parse(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 0:
		return usagef("takes no arguments")
	case opt.Replicas < 1 || opt.Replicas > 5:
		return usagef("-replicas %d: want 1 to 5", opt.Replicas)
	case opt.Rooms.MaxRooms < 1:
		return usagef("-max-rooms %d: want at least 1", opt.Rooms.MaxRooms)
	case opt.Rooms.MaxEntities < 1:
		return usagef("-max-entities %d: want at least 1", opt.Rooms.MaxEntities)
	case opt.MaxFailures < 1:
		return usagef("-max-failures %d: want at least 1", opt.MaxFailures)
	case hf.insecure && hf.url != "" && hf.config == "":
		return usagef("-insecure is for the NATS server started here (without -nats, or with -nats-config)")
	}
	return nil
}

func (c *cmd) cmdHost(ctx context.Context, args []string) error {
	var opt fleet.Options
	var hf hostFlags
	if err := c.parseHost(args, &opt, &hf); err != nil {
		return err
	}
	opt.Scenes = c.Scenes
	if hf.dir != "" {
		opt.Scenes = os.DirFS(hf.dir)
	}
	opt.Rooms.Register = c.Register
	opt.Logf = c.hostLog()
	var page net.Listener
	var pageHosts []string
	if hf.inspect != "" {
		var err error
		if page, opt.Inspect, pageHosts, err = listenPage(hf.inspect); err != nil {
			return err
		}
		defer page.Close()
		opt.Rooms.InspectHosts = pageHosts
	}
	if hf.url == "" || hf.config != "" {
		stop, u, err := c.embeddedNATS(hf)
		if err != nil {
			return err
		}
		defer stop()
		if hf.url, err = withUser(u, hf.url); err != nil {
			return err
		}
	}
	nc, err := c.connect("host", hf.url, hf.creds)
	if err != nil {
		return err
	}
	defer nc.Close()
	h, err := fleet.Join(ctx, nc, opt)
	if err != nil {
		return fmt.Errorf("%s host: %w", c.Name, err)
	}
	if page != nil {
		cl, err := fleet.NewClient(ctx, nc, "")
		var proxy *fleet.Proxy
		if err == nil {
			proxy, err = fleet.NewProxy(nc, "", fleet.ProxyOptions{})
		}
		if err != nil {
			h.Close()
			return fmt.Errorf("%s host: %w", c.Name, err)
		}
		c.servePage(ctx, page, opt.Inspect, pageHosts, h, cl, proxy, c.stdout)
	}
	fmt.Fprintf(c.stdout, "host %s\n", h.ID())
	<-ctx.Done()
	lctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Leave(lctx); err != nil {
		return fmt.Errorf("%s host: %w", c.Name, err)
	}
	return nil
}

// hostLog returns the host's log: a line on stderr for each room taken
// over, lost, quarantined.
func (c *cmd) hostLog() func(format string, args ...any) {
	var mu sync.Mutex
	return func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(c.stderr, "%s host: %s\n", c.Name, fmt.Sprintf(format, args...))
	}
}

// connect connects to the NATS servers of url (with the user and
// password it may carry) as cmd, with the credentials file creds if not
// empty. Errors name the URL without its password.
func (c *cmd) connect(cmd, url, creds string) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(c.Name + " " + cmd)}
	if creds != "" {
		opts = append(opts, nats.UserCredentials(creds))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s %s: connecting to %s: %w", c.Name, cmd, redactURL(url), err)
	}
	return nc, nil
}

// withUser returns the URL of the NATS server started here (server)
// with the user and password of given (-nats with -nats-config:
// nats://USER:PASSWORD@, its address unused), if any.
func withUser(server, given string) (string, error) {
	if given == "" {
		return server, nil
	}
	g, err := neturl.Parse(given)
	if err != nil {
		return "", usagef("-nats %q: %v", redactURL(given), err)
	}
	if g.User == nil {
		return server, nil
	}
	u, err := neturl.Parse(server)
	if err != nil {
		return "", err
	}
	u.User = g.User
	return u.String(), nil
}

// redactURL returns the NATS URLs of s (comma-separated) with their
// passwords masked.
func redactURL(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if u, err := neturl.Parse(strings.TrimSpace(p)); err == nil && u.User != nil {
			parts[i] = u.Redacted()
		}
	}
	return strings.Join(parts, ",")
}

// embeddedNATS starts a NATS server with JetStream on hf.listen (or
// where hf.config says) and prints its URL. One without authorization is
// refused beyond loopback (unless -insecure), and said to be open.
func (c *cmd) embeddedNATS(hf hostFlags) (stop func(), url string, err error) {
	host, portStr, err := net.SplitHostPort(hf.listen)
	port, perr := strconv.Atoi(portStr)
	if err != nil || perr != nil || port < 0 || port > 65535 {
		return nil, "", usagef("-listen %q: want host:port, such as 127.0.0.1:4222 (port 0: a free one)", hf.listen)
	}
	tmp := ""
	if hf.store == "" {
		if tmp, err = os.MkdirTemp("", "scenecs-nats-"); err != nil {
			return nil, "", err
		}
		hf.store = tmp
	}
	removeTmp := func() {
		if tmp != "" {
			_ = os.RemoveAll(tmp)
		}
	}
	s, err := fleet.StartServer(fleet.ServerOptions{Config: hf.config, Host: host, Port: port, StoreDir: filepath.Clean(hf.store), Insecure: hf.insecure})
	if err != nil {
		removeTmp()
		if errors.Is(err, fleet.ErrOpenServer) {
			return nil, "", usagef("the NATS server would listen beyond loopback without authorization: anyone who reaches it could create, change and destroy every room, read them all, and write snapshots that crash the hosts resuming them; give it users and permissions with -nats-config FILE (docs/scale.md), listen on 127.0.0.1 (-listen), or pass -insecure to run it open anyway")
		}
		return nil, "", fmt.Errorf("%s host: %w", c.Name, err)
	}
	switch {
	case s.Open && s.Exposed:
		fmt.Fprintf(c.stderr, "%s host: WARNING: -insecure: the NATS server on %s lets in anyone who reaches it: they may create, change and destroy every room and write the snapshots hosts resume\n", c.Name, s.Listen)
	case s.Open:
		fmt.Fprintf(c.stderr, "%s host: the NATS server on %s has no authorization: anyone on this machine may create, change and destroy rooms (-nats-config gives it users: docs/scale.md)\n", c.Name, s.Listen)
	}
	fmt.Fprintf(c.stdout, "nats: %s\n", s.ClientURL())
	return func() {
		s.Shutdown()
		s.WaitForShutdown()
		removeTmp()
	}, s.ClientURL(), nil
}

func (c *cmd) cmdRooms(ctx context.Context, args []string) error {
	fs := c.newFlags("rooms", roomsUsage)
	url := fs.String("nats", nats.DefaultURL, "the fleet's NATS `URL` (nats://USER:PASSWORD@HOST:PORT for a user)")
	creds := fs.String("creds", "", "a NATS credentials `file` to connect with")
	asJSON := fs.Bool("json", false, "list as JSON")
	if err := c.env.Parse(fs, args); err != nil {
		return err
	}
	var err error
	rest := fs.Args()
	var create *fleet.CreateRequest
	if len(rest) > 0 {
		if err := checkRoomsArgs(rest); err != nil {
			return err
		}
		if rest[0] == "create" {
			if create, err = c.createRequest(rest[1:]); err != nil {
				return err
			}
		}
	}
	nc, err := c.connect("rooms", *url, *creds)
	if err != nil {
		return err
	}
	defer nc.Close()
	// A request the server refuses (the user may not publish there) is
	// never answered: the refusal ends the command, instead of a timeout.
	cctx, cancel := context.WithTimeoutCause(ctx, 30*time.Second, errors.New("no answer in 30 s"))
	defer cancel()
	pctx, refuse := context.WithCancelCause(cctx)
	defer refuse(nil)
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			refuse(err)
		}
	})
	err = c.roomsCommand(pctx, nc, rest, create, *asJSON)
	if cause := context.Cause(pctx); err != nil && cause != nil && !errors.Is(cause, context.Canceled) {
		return fmt.Errorf("%s rooms: %w", c.Name, cause)
	}
	return err
}

// checkRoomsArgs checks the command after "rooms" before anything
// connects.
func checkRoomsArgs(rest []string) error {
	switch rest[0] {
	case "create":
		return nil // its own flags
	case "destroy", "resume":
		if len(rest) != 2 {
			return usagef("%s: want one ID", rest[0])
		}
	case "ask":
		if len(rest) < 3 || len(rest) > 4 {
			return usagef("ask: want ID VERB [PAYLOAD]")
		}
	default:
		return usagef("unknown rooms command %q (want create, destroy, resume or ask)", rest[0])
	}
	return nil
}

// roomsCommand runs the command after "rooms" on nc.
func (c *cmd) roomsCommand(ctx context.Context, nc *nats.Conn, rest []string, create *fleet.CreateRequest, asJSON bool) error {
	cl, err := fleet.NewClient(ctx, nc, "")
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	if len(rest) == 0 {
		return c.listRooms(ctx, cl, asJSON)
	}
	switch rest[0] {
	case "create":
		return c.createRoom(ctx, cl, create)
	case "destroy":
		if err := cl.Destroy(ctx, rest[1]); err != nil {
			return fmt.Errorf("%s rooms: %w", c.Name, err)
		}
		return nil
	case "resume":
		e, err := cl.Resume(ctx, rest[1])
		if err != nil {
			return fmt.Errorf("%s rooms: %w", c.Name, err)
		}
		fmt.Fprintf(c.stdout, "room %s released from quarantine: a host resumes it from its snapshot of tick %d\n", e.ID, e.Tick)
		return nil
	}
	var payload []byte
	if len(rest) == 4 {
		payload = []byte(rest[3])
	}
	b, err := cl.Ask(ctx, rest[1], rest[2], payload)
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	fmt.Fprintf(c.stdout, "%s\n", bytes.TrimRight(b, "\n"))
	return nil
}

// listRooms prints the fleet's rooms: a table, or JSON.
func (c *cmd) listRooms(ctx context.Context, cl *fleet.Client, asJSON bool) error {
	ls, err := cl.List(ctx)
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	if asJSON {
		b, err := json.MarshalIndent(ls, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stdout, "%s\n", b)
		return nil
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tHOST\tSCENE\tTICK\tENTITIES\tTICKS/S")
	for _, l := range ls {
		tick, ents, tps := strconv.FormatInt(l.Tick, 10), strconv.Itoa(l.Entities), strconv.FormatFloat(l.TicksPerSec, 'f', 0, 64)
		switch {
		case l.Quarantine != "":
			tick, ents, tps = "quarantined", "-", "-"
		case !l.Live:
			tick, ents, tps = strconv.FormatInt(l.Entry.Tick, 10)+" (snapshot)", "-", "-"
		}
		host := l.Host
		switch {
		case l.Quarantine != "":
			host = "-"
		case host == "":
			host = "(released)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.ID, host, l.Scene, tick, ents, tps)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range ls {
		if l.Quarantine != "" {
			fmt.Fprintf(c.stdout, "%s is quarantined: %s (%s rooms resume %s)\n", l.ID, l.Quarantine, c.Name, l.ID)
		}
	}
	return nil
}

// createRequest reads the arguments of "rooms create" ([-hz N] [-seed N]
// [-host H] ID SCENE) into a request, before anything connects.
func (c *cmd) createRequest(args []string) (*fleet.CreateRequest, error) {
	fs := c.newFlags("rooms create", roomsUsage)
	var req fleet.CreateRequest
	scenerun.RateVar(fs, &req.Hz, "hz", rooms.DefaultHz, rooms.MaxHz, "the room's tick `rate`")
	fs.Int64Var(&req.Seed, "seed", 0, "mixed into every spawner's seed")
	fs.StringVar(&req.Host, "host", "", "the `host` to place the room on (default: the one with the fewest rooms)")
	if err := c.env.Parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 2 {
		return nil, usagef("create: want ID SCENE")
	}
	req.ID, req.Scene = fs.Arg(0), fs.Arg(1)
	if err := rooms.CheckID(req.ID); err != nil {
		return nil, usagef("create: %v", err)
	}
	if err := rooms.CheckRate(req.Hz, rooms.MaxHz); err != nil {
		return nil, usagef("create: -hz: %v", err)
	}
	if data, err := os.ReadFile(req.Scene); err == nil {
		if err := scenerun.CheckSceneFormat(req.Scene); err != nil {
			return nil, err
		}
		req.Data, req.Scene = data, filepath.Base(req.Scene)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	return &req, nil
}

// createRoom asks the fleet for the room req.
func (c *cmd) createRoom(ctx context.Context, cl *fleet.Client, req *fleet.CreateRequest) error {
	e, err := cl.Create(ctx, *req)
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	fmt.Fprintf(c.stdout, "room %s on host %s\n", e.ID, e.Host)
	return nil
}

// Commands returns the fleet's commands, for a [scenerun.Program]'s
// Commands: host (a room host) and rooms (the fleet's rooms: list,
// create, destroy, resume, ask).
func Commands() []scenerun.Command {
	return []scenerun.Command{
		{Name: "host", Usage: "  {prog} host [-nats URL] [flags]",
			Run: func(ctx context.Context, env *scenerun.Env, args []string) error {
				return newCmd(env).cmdHost(ctx, args)
			}},
		{Name: "rooms", Usage: "  {prog} rooms [list | create SCENE | destroy ID | resume ID | ask ID VERB [PAYLOAD]]",
			Run: func(ctx context.Context, env *scenerun.Env, args []string) error {
				return newCmd(env).cmdRooms(ctx, args)
			}},
	}
}

// cmd is one run of a fleet command: the program it runs in and its
// writers.
type cmd struct {
	scenerun.Program
	env            *scenerun.Env
	stdout, stderr io.Writer
}

func newCmd(env *scenerun.Env) *cmd {
	return &cmd{Program: env.Program(), env: env, stdout: env.Stdout(), stderr: env.Stderr()}
}

// newFlags returns the command's flag set (see scenerun.Env.FlagSet).
func (c *cmd) newFlags(name, usage string) *flag.FlagSet { return c.env.FlagSet(name, usage) }

// usagef returns a usage error (exit code 2).
func usagef(format string, args ...any) error {
	return scenerun.UsageError(fmt.Sprintf(format, args...))
}
