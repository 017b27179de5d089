// Command farlink is kscope's far-link proxy for benchmarks and fault tests: a TCP proxy that puts a one-way
// delay and a bandwidth cap on each direction between a client and a server (an API server on loopback made
// to look like one in a far region, behind a VPN or a bastion), counts connections and bytes each way, and
// injects faults on demand.
//
//	farlink --listen 127.0.0.1:7443 --target 127.0.0.1:6443 --delay 50ms --rate 50mbit [--control 127.0.0.1:7444]
//
// --delay is the one-way delay of each direction (the round trip is twice it); --up-delay, --down-delay,
// --up-rate and --down-rate set one direction apart. Bytes are delayed chunk by chunk, so a TLS handshake
// pays its round trips honestly; the TCP handshake (answered at once by the proxy's own host) is paid by
// holding a connection's first bytes from the client one round trip. The control address (plain HTTP, loopback only) answers:
//
//	GET  /stats                 {"connections":N,"open":N,"bytes_up":N,"bytes_down":N}
//	POST /drop                  closes every open connection (new ones are forwarded as usual)
//	POST /stall?for=30s         forwards no byte for that long (for=0 ends a stall)
//	POST /shape?delay=50ms&rate=50mbit   the shape of connections accepted from now on
//
// It prints "farlink: listening on ADDR" once it accepts connections, and runs until interrupted.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kscope/spawn"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "farlink: %s\n", err)
		os.Exit(1)
	}
}

// run parses args, listens, and serves until a signal or a goroutine's panic.
func run(args []string) error {
	fs := flag.NewFlagSet("farlink", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:0", "address to accept connections on")
	target := fs.String("target", "", "address to forward them to (required)")
	control := fs.String("control", "", "address of the control HTTP endpoint (empty: none)")
	delay := fs.Duration("delay", 0, "one-way delay of each direction")
	rate := fs.String("rate", "0", "bandwidth cap of each direction, e.g. 50mbit (0: none)")
	upDelay := fs.Duration("up-delay", -1, "one-way delay client → server (default --delay)")
	downDelay := fs.Duration("down-delay", -1, "one-way delay server → client (default --delay)")
	upRate := fs.String("up-rate", "", "bandwidth cap client → server (default --rate)")
	downRate := fs.String("down-rate", "", "bandwidth cap server → client (default --rate)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *target == "" {
		return errors.New("--target is required")
	}
	both, err := parseRate(*rate)
	if err != nil {
		return err
	}
	up, down := Shape{Delay: *delay, Rate: both}, Shape{Delay: *delay, Rate: both}
	if *upDelay >= 0 {
		up.Delay = *upDelay
	}
	if *downDelay >= 0 {
		down.Delay = *downDelay
	}
	if up.Rate, err = rateOr(*upRate, both); err != nil {
		return err
	}
	if down.Rate, err = rateOr(*downRate, both); err != nil {
		return err
	}
	sup := spawn.NewSupervisor()
	p := NewProxy(*target, up, down, sup.Func())
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer l.Close()
	served := make(chan error, 2)
	sup.Go(func() { served <- p.Serve(l) })
	if *control != "" {
		cl, err := net.Listen("tcp", *control)
		if err != nil {
			return fmt.Errorf("listen for control: %w", err)
		}
		defer cl.Close()
		fmt.Printf("farlink: control on %s\n", cl.Addr())
		sup.Go(func() { served <- http.Serve(cl, controlHandler(p)) })
	}
	fmt.Printf("farlink: listening on %s → %s (up %s, down %s)\n", l.Addr(), *target, up, down)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	select {
	case <-sig:
		return nil
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-sup.Failed():
		return sup.Err()
	}
}

// String is the shape as the start line and the control endpoint print it.
func (s Shape) String() string {
	if s.Rate <= 0 {
		return fmt.Sprintf("%s, no cap", s.Delay)
	}
	return fmt.Sprintf("%s, %g Mbit/s", s.Delay, float64(s.Rate)/1e6)
}

// rateOr parses s, or returns def when s is empty.
func rateOr(s string, def int64) (int64, error) {
	if s == "" {
		return def, nil
	}
	return parseRate(s)
}

// parseRate reads a bandwidth in bits per second: a number with an optional suffix kbit, mbit or gbit
// (decimal, as links are sold).
func parseRate(s string) (int64, error) {
	mult := int64(1)
	num := strings.ToLower(strings.TrimSpace(s))
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"kbit", 1e3}, {"mbit", 1e6}, {"gbit", 1e9}, {"bit", 1}} {
		if strings.HasSuffix(num, u.suffix) {
			num, mult = strings.TrimSuffix(num, u.suffix), u.mult
			break
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 {
		return 0, fmt.Errorf("read the rate %q: want a number of bits per second such as 50mbit", s)
	}
	return int64(f * float64(mult)), nil
}

// controlHandler serves the control endpoint of p (see the package comment).
func controlHandler(p *Proxy) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(p.Stats())
	})
	mux.HandleFunc("POST /drop", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "dropped %d\n", p.Drop())
	})
	mux.HandleFunc("POST /stall", func(w http.ResponseWriter, r *http.Request) {
		d, err := time.ParseDuration(r.URL.Query().Get("for"))
		if err != nil {
			http.Error(w, "for: want a duration such as 30s", http.StatusBadRequest)
			return
		}
		p.Stall(d)
		fmt.Fprintf(w, "stalled for %s\n", d)
	})
	mux.HandleFunc("POST /shape", func(w http.ResponseWriter, r *http.Request) {
		d, err := time.ParseDuration(r.URL.Query().Get("delay"))
		if err != nil {
			http.Error(w, "delay: want a duration such as 50ms", http.StatusBadRequest)
			return
		}
		rate, err := parseRate(r.URL.Query().Get("rate"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s := Shape{Delay: d, Rate: rate}
		p.SetShape(s, s)
		fmt.Fprintf(w, "shape %s each way\n", s)
	})
	return mux
}
