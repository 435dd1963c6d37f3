package fleet

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// RunServer starts a NATS server with JetStream in this process, for a
// fleet on one machine and for tests: it listens on host:port (port 0: a
// free one) and keeps JetStream's files under dir. Shut it down with
// its Shutdown method; ClientURL gives its address.
func RunServer(host string, port int, dir string) (*server.Server, error) {
	if port == 0 {
		port = server.RANDOM_PORT
	}
	s, err := server.NewServer(&server.Options{
		ServerName: "scenecs-embedded",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   dir,
		NoLog:      true,
		NoSigs:     true,
	})
	if err != nil {
		return nil, fmt.Errorf("fleet: nats server: %w", err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("fleet: nats server on %s:%d not ready after 10 s", host, port)
	}
	return s, nil
}
