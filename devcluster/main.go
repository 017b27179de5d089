// Command devcluster builds and runs a real Kubernetes control plane on loopback for kscope's demo and tests:
// etcd, kube-apiserver, kube-controller-manager and kube-scheduler from k8s.io/kubernetes, kwok for fake
// nodes whose pods become Running (its kubelet server answers their logs, exec, port-forward and resource
// metrics), a local HTTP server behind every pod port, and metrics-server as the aggregated metrics.k8s.io
// API. Everything lives under one cache folder (default .cache/devcluster).
//
//	devcluster build              build the binaries (skipped when already built for the same versions)
//	devcluster up [--clusters N]  start the cluster (or reuse the running one), write its kubeconfig; N
//	                              clusters in all (default 2): after the first, API servers of their own
//	                              on its etcd, without nodes (contexts second, third, fourth)
//	devcluster seed [--pods N] [--context C]  create demo content; --pods adds N pods fast (for scale
//	                              tests), in the cluster of context C
//	devcluster churn --rate R --for D   keep the cluster changing (and the pods' logs growing)
//	devcluster log CONTAINER TEXT       append a line to the log of the pods' containers named CONTAINER
//	devcluster down [--wipe]      stop what up started; --wipe also deletes the cluster state
//	devcluster stop COMPONENT     stop one component (for fault tests); up starts it again
//	devcluster kill COMPONENT     kill one component with SIGKILL (a crash); up starts it again
//	devcluster compact            compact etcd's history to its current revision
//	devcluster env                print the export KUBECONFIG=… line
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

const usage = `usage: devcluster [--cache DIR] <build|up|seed|churn|log|down|stop|kill|compact|env> [flags]
  build               build etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok, metrics-server
  up [--clusters N]   start the cluster on loopback (reuses a running one) and write its kubeconfig; N (2-4)
                      clusters in all: contexts second, third, fourth (no nodes: their pods stay Pending)
  seed [--pods N --namespace NS] [--context C]   create demo content, or N extra pods in NS, in C's cluster
  churn --rate R --for D           change the cluster R times a second for duration D; pods' logs grow
  log [--stderr] CONTAINER TEXT…   append TEXT to the log of every pod's container named CONTAINER
  log --lines N CONTAINER          append N generated lines to it
  down [--wipe]       stop the cluster; --wipe deletes its state too
  stop COMPONENT      stop one component (fault tests); up starts it again
  kill COMPONENT      kill one component with SIGKILL (a crash, for fault tests); up starts it again
  compact             compact etcd to its current revision (watches resuming from older versions get 410 Gone)
  env                 print the export KUBECONFIG=… line
`

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "devcluster: %s\n", oneLine(err.Error()))
		os.Exit(1)
	}
}

func run(args []string) error {
	global := flag.NewFlagSet("devcluster", flag.ContinueOnError)
	global.Usage = func() { fmt.Fprint(os.Stderr, usage) }
	cache := global.String("cache", defaultCacheDir(), "folder for binaries and cluster state")
	if err := global.Parse(args); err != nil {
		return err
	}
	if global.NArg() == 0 {
		global.Usage()
		return errors.New("no command given")
	}
	layout := newLayout(*cache)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd, rest := global.Arg(0), global.Args()[1:]
	switch cmd {
	case "build":
		return runBuild(ctx, layout, rest)
	case "up":
		return runUp(ctx, layout, rest)
	case "seed":
		return runSeed(ctx, layout, rest)
	case "churn":
		return runChurn(ctx, layout, rest)
	case "log":
		return runLog(layout, rest)
	case "serve-http": // the pod server, started by up
		return runServeHTTP(ctx, rest)
	case "down":
		return runDown(layout, rest)
	case "stop":
		return runStop(layout, rest)
	case "kill":
		return runKill(layout, rest)
	case "compact":
		return runCompact(ctx, layout)
	case "env":
		fmt.Printf("export KUBECONFIG=%s\n", layout.kubeconfig())
		return nil
	}
	global.Usage()
	return fmt.Errorf("unknown command %q", cmd)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
