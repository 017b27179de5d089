package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ports are the loopback ports one cluster uses; kept in the state folder so a restart keeps its kubeconfig.
type ports struct {
	EtcdClient    int `json:"etcdClient"`
	EtcdPeer      int `json:"etcdPeer"`
	APIServer     int `json:"apiServer"`
	Kwok          int `json:"kwok"` // kwok's kubelet server, the kubelet port of every fake node
	MetricsServer int `json:"metricsServer"`
	PodServer     int `json:"podServer"` // the HTTP server every pod port forwards to
	// APIServer2 is the second cluster's API server: the same etcd under its own prefix (extraCluster).
	APIServer2 int `json:"apiServer2"`
	// APIServers are the API servers of the clusters after the second (third, fourth), as far as started.
	APIServers []int `json:"apiServers,omitempty"`
}

func runUp(ctx context.Context, l layout, args []string) error {
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	nodes := fs.Int("nodes", 4, "fake kwok nodes to create")
	clusters := fs.Int("clusters", 2, fmt.Sprintf("clusters to run, 2 to %d: the first (with nodes) and API servers of their own on its etcd (contexts second, third, fourth); one already running is kept", maxClusters))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *clusters < 2 || *clusters > maxClusters {
		return fmt.Errorf("--clusters %d: between 2 and %d", *clusters, maxClusters)
	}
	if err := ensureBuilt(ctx, l, false); err != nil {
		return err
	}
	start := time.Now()
	c, renewed, err := ensureCredentials(l)
	if err != nil {
		return err
	}
	if renewed {
		fmt.Fprintln(os.Stderr, "devcluster: new certificates for a cluster state of an older devcluster: restarting what runs")
		if err := stopAll(l); err != nil {
			return err
		}
	}
	n := max(*clusters, runningClusters(l)) // a cluster started by an earlier `up --clusters` stays
	p, err := loadOrPickPorts(l, n)
	if err != nil {
		return err
	}
	if err := writeKubeconfig(l, c, p, n); err != nil {
		return err
	}
	if err := startControlPlane(ctx, l, c, p, *nodes, n); err != nil {
		return err
	}
	var others []string
	for _, e := range extraClusters(n) {
		others = append(others, fmt.Sprintf("%s (context %s)", e.url(p), e.context))
	}
	fmt.Fprintf(os.Stderr, "devcluster: up in %s: https://127.0.0.1:%d (contexts admin, viewer, tester); more clusters at %s\n",
		time.Since(start).Round(100*time.Millisecond), p.APIServer, strings.Join(others, ", "))
	fmt.Printf("export KUBECONFIG=%s\n", l.kubeconfig())
	return nil
}

// startControlPlane starts each component that is not already running with the same flags, in dependency
// order, waiting for each to be healthy before the next; kwok's nodes come before metrics-server scrapes them.
func startControlPlane(ctx context.Context, l layout, c credentials, p ports, nodes, clusters int) error {
	for _, s := range clusterComponents(l, c, p, nodes, clusters) {
		if err := s.run(ctx, s.prepare); err != nil {
			return err
		}
		identity, err := s.identity()
		if err != nil {
			return err
		}
		if pid, ok := runningPid(l, s.name); ok {
			if startedWith(l, s.name, identity) {
				fmt.Fprintf(os.Stderr, "devcluster: %s already running (pid %d)\n", s.name, pid)
				if err := s.run(ctx, s.after); err != nil {
					return err
				}
				continue
			}
			fmt.Fprintf(os.Stderr, "devcluster: %s (pid %d) runs with other flags or configuration: restarting it\n", s.name, pid)
			if err := stopProcess(l, s.name, 15*time.Second); err != nil {
				return err
			}
		}
		if err := checkPortsFree(s.name, p); err != nil {
			return err
		}
		pid, err := startProcess(l, s.name, identity, s.bin, s.env, s.args...)
		if err != nil {
			return err
		}
		if err := waitHealthy(ctx, l, s.name, pid, s.ready); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "devcluster: started %s (pid %d)\n", s.name, pid)
		if err := s.run(ctx, s.after); err != nil {
			return err
		}
	}
	return nil
}

// waitHealthy waits until ready succeeds (or, without a ready check, until the process has stayed up for
// two seconds), and reports a component that died with the tail of its log.
func waitHealthy(ctx context.Context, l layout, name string, pid int, ready func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	stableAt := time.Now().Add(2 * time.Second)
	var lastErr error
	for {
		if _, alive := runningPid(l, name); !alive {
			return fmt.Errorf("%s (pid %d) exited during start-up: %s (log: %s)", name, pid,
				logTail(l.logFile(name)), l.logFile(name))
		}
		if ready == nil && time.Now().After(stableAt) {
			return nil
		}
		if ready != nil {
			if lastErr = ready(ctx); lastErr == nil {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s did not become ready: %v (log: %s)", name, lastErr, l.logFile(name))
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// loadOrPickPorts reads the cluster's ports, picking free ones for those it has none for yet (a state of an
// older devcluster lacks the newer components' ports) and for the API servers of clusters up to clusters
// (the ports of clusters started before are kept).
func loadOrPickPorts(l layout, clusters int) (ports, error) {
	var p ports
	if data, err := os.ReadFile(l.state("ports.json")); err == nil {
		if err := json.Unmarshal(data, &p); err != nil {
			p = ports{}
		}
	}
	for len(p.APIServers) < clusters-2 {
		p.APIServers = append(p.APIServers, 0)
	}
	fields := []*int{&p.EtcdClient, &p.EtcdPeer, &p.APIServer, &p.Kwok, &p.MetricsServer, &p.PodServer, &p.APIServer2}
	for i := range p.APIServers {
		fields = append(fields, &p.APIServers[i])
	}
	var missing []*int
	taken := map[int]bool{}
	for _, f := range fields {
		if *f == 0 {
			missing = append(missing, f)
		}
		taken[*f] = true
	}
	if len(missing) == 0 {
		return p, nil
	}
	free, err := freePorts(len(fields)) // more than missing: some may be ports of this cluster, now stopped
	if err != nil {
		return p, err
	}
	for _, port := range free {
		if len(missing) > 0 && !taken[port] {
			*missing[0], missing = port, missing[1:]
		}
	}
	if len(missing) > 0 {
		return p, errors.New("pick free ports: the kernel kept offering this cluster's own")
	}
	if err := os.MkdirAll(l.stateDir(), 0o755); err != nil {
		return p, err
	}
	data, _ := json.MarshalIndent(p, "", "  ")
	return p, os.WriteFile(l.state("ports.json"), data, 0o644)
}

// freePorts asks the kernel for n distinct free loopback ports.
func freePorts(n int) ([]int, error) {
	var out []int
	var listeners []net.Listener
	defer func() {
		for _, ln := range listeners {
			ln.Close()
		}
	}()
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("pick a free port: %w", err)
		}
		listeners = append(listeners, ln)
		out = append(out, ln.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

// checkPortsFree reports, before a component starts, a port that another process holds.
func checkPortsFree(component string, p ports) error {
	var need []int
	switch component {
	case "etcd":
		need = []int{p.EtcdClient, p.EtcdPeer}
	case "kube-apiserver":
		need = []int{p.APIServer}
	case "kwok":
		need = []int{p.Kwok}
	case "metrics-server":
		need = []int{p.MetricsServer}
	case podServer:
		need = []int{p.PodServer}
	}
	if e, ok := extraClusterOf(component); ok && component == e.apiServer() {
		need = []int{e.port(p)}
	}
	for _, port := range need {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("port %d, needed by %s, is in use by another process: stop it, or run `devcluster down --wipe` to pick new ports", port, component)
			}
			return fmt.Errorf("check port %d for %s: %w", port, component, err)
		}
		ln.Close()
	}
	return nil
}

func apiURL(p ports) string { return fmt.Sprintf("https://127.0.0.1:%d", p.APIServer) }
