package scenerun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/scenecs/scenecs/rooms"
	"github.com/scenecs/scenecs/rooms/fleet"
)

const hostUsage = `Usage: {prog} host [-nats URL] [flags]

Runs a room host: rooms of scenes, created and reached through NATS
(docs/rooms.md). With -nats it joins the fleet on that NATS server;
without, it starts a NATS server with JetStream in this process on
-listen and prints its URL ("nats: URL"), so one command runs the whole
thing on one machine. It prints "host ID" once it serves, and runs until
Ctrl-C or SIGTERM, when it snapshots its rooms and hands them to the
other hosts. With -inspect ADDR it serves a page listing the rooms of
every host, each opening its inspector here (another host's room
through NATS, streams included), and prints "inspect: URL".

Flags:
`

const roomsUsage = `Usage:
  {prog} rooms [-nats URL] [-json]                  list the rooms of the fleet
  {prog} rooms [-nats URL] create [-hz N] [-seed N] [-host H] ID SCENE
  {prog} rooms [-nats URL] destroy ID
  {prog} rooms [-nats URL] ask ID VERB [PAYLOAD]

SCENE is a scene file here (its bytes are sent; no includes), or else
the name of a scene in the hosts' -scenes directory (default: the
embedded scenes). VERB is one of scene, query, get, set, emit, step,
pause, play, stats, components, info, snapshot, destroy, http
(docs/rooms.md); the answer is printed as the room gives it.

Flags:
`

func (c *cli) cmdHost(ctx context.Context, args []string) error {
	fs := c.newFlags("host", hostUsage)
	url := fs.String("nats", "", "the fleet's NATS `URL` (empty: start a NATS server in this process)")
	listen := fs.String("listen", "127.0.0.1:4222", "without -nats: the `address` of the NATS server started here")
	store := fs.String("store", "", "without -nats: the `directory` of JetStream's files (default: a temporary directory)")
	var opt fleet.Options
	fs.StringVar(&opt.ID, "id", "", "the host's `id` (default: the machine's name and a random suffix)")
	dir := fs.String("scenes", "", "the `directory` create requests name scenes in (default: the embedded scenes)")
	intervalVar(fs, &opt.Heartbeat, "heartbeat", time.Second, "", "how often the host says it is alive (an `interval`)")
	intervalVar(fs, &opt.DeadAfter, "dead-after", 3*time.Second, "", "how long (an `interval`) a silent host counts as alive")
	intervalVar(fs, &opt.SnapshotEvery, "snapshot", 2*time.Second, "", "how often (an `interval`) each room is snapshotted: at most this much is lost with a host")
	fs.IntVar(&opt.Replicas, "replicas", 1, "copies JetStream keeps of the directory and snapshots: 1 on one server, 3 on a cluster (`n` in 1..5, the same on every host)")
	inspectAddr := fs.String("inspect", "", "serve a page of the fleet's rooms on `addr` (host:port), each opening its inspector, and print its URL")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("takes no arguments")
	}
	if opt.Replicas < 1 || opt.Replicas > 5 {
		return usagef("-replicas %d: want 1 to 5", opt.Replicas)
	}
	opt.Scenes = c.Scenes
	if *dir != "" {
		opt.Scenes = os.DirFS(*dir)
	}
	opt.Rooms.Register = c.Register
	var page net.Listener
	var pageHosts []string
	if *inspectAddr != "" {
		var err error
		if page, opt.Inspect, pageHosts, err = listenPage(*inspectAddr); err != nil {
			return err
		}
		defer page.Close()
		opt.Rooms.InspectHosts = pageHosts
	}
	if *url == "" {
		stop, u, err := c.embeddedNATS(*listen, *store)
		if err != nil {
			return err
		}
		defer stop()
		*url = u
	}
	nc, err := nats.Connect(*url, nats.Name(c.Name+" host"))
	if err != nil {
		return fmt.Errorf("%s host: connecting to %s: %w", c.Name, *url, err)
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

// embeddedNATS starts a NATS server with JetStream on listen and prints
// its URL.
func (c *cli) embeddedNATS(listen, store string) (stop func(), url string, err error) {
	host, portStr, err := net.SplitHostPort(listen)
	port, perr := strconv.Atoi(portStr)
	if err != nil || perr != nil || port < 0 || port > 65535 {
		return nil, "", usagef("-listen %q: want host:port, such as 127.0.0.1:4222 (port 0: a free one)", listen)
	}
	tmp := ""
	if store == "" {
		if tmp, err = os.MkdirTemp("", "scenecs-nats-"); err != nil {
			return nil, "", err
		}
		store = tmp
	}
	s, err := fleet.RunServer(host, port, filepath.Clean(store))
	if err != nil {
		return nil, "", fmt.Errorf("%s host: %w", c.Name, err)
	}
	fmt.Fprintf(c.stdout, "nats: %s\n", s.ClientURL())
	return func() {
		s.Shutdown()
		s.WaitForShutdown()
		if tmp != "" {
			_ = os.RemoveAll(tmp)
		}
	}, s.ClientURL(), nil
}

func (c *cli) cmdRooms(ctx context.Context, args []string) error {
	fs := c.newFlags("rooms", roomsUsage)
	url := fs.String("nats", nats.DefaultURL, "the fleet's NATS `URL`")
	asJSON := fs.Bool("json", false, "list as JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	nc, err := nats.Connect(*url, nats.Name(c.Name+" rooms"))
	if err != nil {
		return fmt.Errorf("%s rooms: connecting to %s: %w", c.Name, *url, err)
	}
	defer nc.Close()
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cl, err := fleet.NewClient(cctx, nc, "")
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return c.listRooms(cctx, cl, *asJSON)
	}
	switch rest[0] {
	case "create":
		return c.createRoom(cctx, cl, rest[1:])
	case "destroy":
		if len(rest) != 2 {
			return usagef("destroy: want one ID")
		}
		return cl.Destroy(cctx, rest[1])
	case "ask":
		if len(rest) < 3 || len(rest) > 4 {
			return usagef("ask: want ID VERB [PAYLOAD]")
		}
		var payload []byte
		if len(rest) == 4 {
			payload = []byte(rest[3])
		}
		b, err := cl.Ask(cctx, rest[1], rest[2], payload)
		if err != nil {
			return fmt.Errorf("%s rooms: %w", c.Name, err)
		}
		fmt.Fprintf(c.stdout, "%s\n", bytes.TrimRight(b, "\n"))
		return nil
	}
	return usagef("unknown rooms command %q (want create, destroy or ask)", rest[0])
}

// listRooms prints the fleet's rooms: a table, or JSON.
func (c *cli) listRooms(ctx context.Context, cl *fleet.Client, asJSON bool) error {
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
		if host == "" {
			host = "(released)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.ID, host, l.Scene, tick, ents, tps)
	}
	return tw.Flush()
}

// createRoom asks the fleet for a room: create [-hz N] [-seed N] [-host H] ID SCENE.
func (c *cli) createRoom(ctx context.Context, cl *fleet.Client, args []string) error {
	fs := c.newFlags("rooms create", roomsUsage)
	var req fleet.CreateRequest
	rateVar(fs, &req.Hz, "hz", rooms.DefaultHz, rooms.MaxHz, "the room's tick `rate`")
	fs.Int64Var(&req.Seed, "seed", 0, "mixed into every spawner's seed")
	fs.StringVar(&req.Host, "host", "", "the `host` to place the room on (default: the one with the fewest rooms)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("create: want ID SCENE")
	}
	req.ID, req.Scene = fs.Arg(0), fs.Arg(1)
	if err := rooms.CheckID(req.ID); err != nil {
		return usagef("create: %v", err)
	}
	if data, err := os.ReadFile(req.Scene); err == nil {
		if err := checkSceneFormat(req.Scene); err != nil {
			return err
		}
		req.Data, req.Scene = data, filepath.Base(req.Scene)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	e, err := cl.Create(ctx, req)
	if err != nil {
		return fmt.Errorf("%s rooms: %w", c.Name, err)
	}
	fmt.Fprintf(c.stdout, "room %s on host %s\n", e.ID, e.Host)
	return nil
}

// cmdFleet runs the commands of a fleet of room hosts: host and rooms.
func (c *cli) cmdFleet(ctx context.Context, cmd string, args []string) error {
	if cmd == "host" {
		return c.cmdHost(ctx, args)
	}
	return c.cmdRooms(ctx, args)
}
