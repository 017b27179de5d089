package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"
)

// podServerReply starts every answer of the pod-port HTTP server, so that tests recognise it.
const podServerReply = "kscope devcluster pod server"

// runServeHTTP serves the local HTTP server that every pod port on the kwok nodes forwards to (`kubectl
// port-forward`, through kwok's ClusterPortForward). `up` starts it as the component podserver.
func runServeHTTP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("serve-http", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(podServerHandler), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	fmt.Fprintf(os.Stderr, "devcluster: pod server listening on %s\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve http on %s: %w", ln.Addr(), err)
	}
	return nil
}

// podServerHandler answers every request with one line naming the server, the method and the path; /healthz
// answers "ok".
func podServerHandler(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Path == "/healthz" {
		fmt.Fprintln(w, "ok")
		return
	}
	fmt.Fprintf(w, "%s: %s %s\n", podServerReply, r.Method, r.URL.RequestURI())
}
