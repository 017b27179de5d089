package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"
)

// podServer is the component name of the local HTTP server behind every pod port.
const podServer = "podserver"

// component is one process of the cluster.
type component struct {
	name    string
	bin     string
	args    []string
	env     []string                    // nil: this process's environment
	prepare func(context.Context) error // writes the files it reads (inputs), on every `up`
	inputs  []string                    // files it reads at start: a change restarts it, as new args do
	ready   func(context.Context) error // nil: up for two seconds is healthy
	after   func(context.Context) error // once healthy, and on every `up` that finds it running
}

// identity is what the component was started with: its args, its environment when not inherited, and the
// digests of its inputs.
func (s component) identity() (string, error) {
	parts := append(slices.Clone(s.args), s.env...)
	for _, path := range s.inputs {
		data, err := os.ReadFile(path)
		if err != nil {
			return "", fmt.Errorf("read %s's input: %w", s.name, err)
		}
		sum := sha256.Sum256(data)
		parts = append(parts, path+"@"+hex.EncodeToString(sum[:]))
	}
	return strings.Join(parts, "\x00"), nil
}

// run calls step unless it is nil.
func (s component) run(ctx context.Context, step func(context.Context) error) error {
	if step == nil {
		return nil
	}
	return step(ctx)
}

// componentNames are the cluster's processes in start order (down stops them in reverse).
// Every possible extra cluster's are named, so that down stops them all.
func componentNames() []string {
	names := []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler"}
	names = append(names, extraComponentNames()...)
	return append(names, podServer, "kwok", "metrics-server")
}

// clusterComponents are the cluster's processes, in componentNames' order, for a first cluster of nodes fake
// nodes and clusters clusters in all (extraClusters).
func clusterComponents(l layout, c credentials, p ports, nodes, clusters int) []component {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	https := func(port int, path string) func(context.Context) error {
		return func(ctx context.Context) error {
			return httpReady(ctx, fmt.Sprintf("https://127.0.0.1:%d%s", port, path), c)
		}
	}
	first := []component{
		{name: "etcd", bin: l.bin("etcd"), args: etcdArgs(l, p), ready: func(ctx context.Context) error {
			return httpReady(ctx, fmt.Sprintf("http://127.0.0.1:%d/health", p.EtcdClient), c)
		}},
		{name: "kube-apiserver", bin: l.bin("kube-apiserver"), args: apiserverArgs(l, c, p),
			prepare: func(context.Context) error { return writeAuditPolicy(l) }, inputs: []string{l.state("audit-policy.yaml")},
			ready: https(p.APIServer, "/readyz")},
		{name: "kube-controller-manager", bin: l.bin("kube-controller-manager"), args: controllerManagerArgs(l, c)},
		{name: "kube-scheduler", bin: l.bin("kube-scheduler"), args: schedulerArgs(l)},
	}
	// The extra clusters (contexts second, third …): each an API server of its own on the same etcd under
	// another prefix, and a controller manager (service accounts, namespaces, workloads); no nodes, no
	// scheduler: their pods stay Pending.
	var extra []component
	for _, e := range extraClusters(clusters) {
		extra = append(extra,
			component{name: e.apiServer(), bin: l.bin("kube-apiserver"), args: extraAPIServerArgs(l, c, p, e),
				prepare: func(context.Context) error { return writeAuditPolicy(l) }, inputs: []string{l.state("audit-policy.yaml")},
				ready: https(e.port(p), "/readyz")},
			component{name: e.controllerManager(), bin: l.bin("kube-controller-manager"), args: extraControllerManagerArgs(l, c, e)})
	}
	last := []component{
		{name: podServer, bin: self, args: []string{"serve-http", "--addr", fmt.Sprintf("127.0.0.1:%d", p.PodServer)},
			ready: func(ctx context.Context) error {
				return httpReady(ctx, fmt.Sprintf("http://127.0.0.1:%d/healthz", p.PodServer), c)
			}},
		{name: "kwok", bin: l.bin("kwok"), args: kwokArgs(l, c, p), env: kwokEnv(l),
			prepare: func(context.Context) error { return writeKwokConfig(l, p) }, inputs: []string{l.state("kwok.yaml")},
			after: func(ctx context.Context) error {
				_, err := ensureNodes(ctx, l, p, demoNodes(), nodes)
				return err
			}},
		{name: "metrics-server", bin: l.bin("metrics-server"), args: metricsServerArgs(l, c, p),
			ready: func(ctx context.Context) error { return metricsServerReady(ctx, c, p) },
			after: func(ctx context.Context) error { return registerMetricsAPI(ctx, l, c, p) }},
	}
	return append(append(first, extra...), last...)
}
