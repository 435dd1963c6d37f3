package fleetcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"
	"github.com/scenecs/scenecs/rooms/fleet"
)

// credsServer writes a nats-server configuration of the decentralized
// kind (an operator, an account with JetStream, its user as a standard
// credentials file), starts a server from it, and returns the server's
// URL and the credentials file.
func credsServer(t *testing.T) (url, creds string) {
	t.Helper()
	dir := t.TempDir()
	okp, _ := nkeys.CreateOperator()
	opub, _ := okp.PublicKey()
	skp, _ := nkeys.CreateAccount() // the system account, which JetStream wants
	spub, _ := skp.PublicKey()
	sc := jwt.NewAccountClaims(spub)
	sc.Name = "SYS"
	sjwt, err := sc.Encode(okp)
	if err != nil {
		t.Fatal(err)
	}
	oc := jwt.NewOperatorClaims(opub)
	oc.Name, oc.SystemAccount = "scenecs-test", spub
	ojwt, err := oc.Encode(okp)
	if err != nil {
		t.Fatal(err)
	}
	akp, _ := nkeys.CreateAccount()
	apub, _ := akp.PublicKey()
	ac := jwt.NewAccountClaims(apub)
	ac.Name = "fleet"
	ac.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: -1, DiskStorage: -1, Streams: -1, Consumer: -1}
	ajwt, err := ac.Encode(okp)
	if err != nil {
		t.Fatal(err)
	}
	ukp, _ := nkeys.CreateUser()
	upub, _ := ukp.PublicKey()
	uc := jwt.NewUserClaims(upub)
	uc.IssuerAccount = apub
	ujwt, err := uc.Encode(akp)
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := ukp.Seed()
	cb, err := jwt.FormatUserConfig(ujwt, seed)
	if err != nil {
		t.Fatal(err)
	}
	creds = filepath.Join(dir, "host.creds")
	conf := filepath.Join(dir, "fleet.conf")
	if err := os.WriteFile(creds, cb, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("operator: %s\nsystem_account: %s\nresolver: MEMORY\nresolver_preload: {\n  %s: %s\n  %s: %s\n}\n", ojwt, spub, spub, sjwt, apub, ajwt)
	if err := os.WriteFile(conf, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := fleet.StartServer(fleet.ServerOptions{Config: conf, Host: "127.0.0.1", StoreDir: filepath.Join(dir, "js")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	if s.Open {
		t.Fatal("a server of trusted operators taken for open")
	}
	return s.ClientURL(), creds
}

// TestFleetCreds: "host" and "rooms" join a fleet whose NATS wants a
// standard credentials file (-creds); without it they are refused.
func TestFleetCreds(t *testing.T) {
	url, creds := credsServer(t)
	p := fleetProgram(Program{Name: "game"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb lockedBuffer
	done := make(chan int)
	go func() { done <- p.Run(ctx, []string{"host", "-nats", url, "-creds", creds, "-id", "c1"}, &out, &errb) }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "host c1\n") {
		if time.Now().After(deadline) {
			t.Fatalf("no host line in 20 s:\n%s\n%s", out.String(), errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	var o, e bytes.Buffer
	if code := p.Run(context.Background(), []string{"rooms", "-nats", url, "-creds", creds, "create", "r1", "asteroids.yaml"}, &o, &e); code != 0 || o.String() != "room r1 on host c1\n" {
		t.Errorf("create with -creds: exit %d: %s%s", code, o.String(), e.String())
	}
	o.Reset()
	e.Reset()
	if code := p.Run(context.Background(), []string{"rooms", "-nats", url}, &o, &e); code != ExitScene || !strings.Contains(e.String(), "Authorization Violation") {
		t.Errorf("without -creds: exit %d: %s", code, e.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("host: exit %d\n%s", code, errb.String())
	}
}
