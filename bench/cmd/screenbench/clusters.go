package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// ClusterResults is one `screenbench clusters`: kscope on each cluster alone and on all of them in one table,
// the same namespace of the same number of pods in each, with the server's floor, round by round.
type ClusterResults struct {
	Bench     string            `json:"bench"` // "clusters"
	Namespace string            `json:"namespace"`
	Pods      int               `json:"pods"` // in each cluster
	Contexts  []string          `json:"contexts"`
	MaxLoad   float64           `json:"max_load"`
	Started   string            `json:"started"`
	Finished  string            `json:"finished"`
	Machine   map[string]string `json:"machine"`
	Versions  map[string]string `json:"versions"`
	Rounds    []ClusterRound    `json:"rounds"`
}

// ClusterRound is one round: the floors, then the sessions in a rotating order.
type ClusterRound struct {
	Run     int    `json:"run"`
	LoadAvg string `json:"loadavg"`
	// Order is the order the sessions ran in (a context, or "all" for the table over every cluster).
	Order []string `json:"order"`
	// Single holds kscope's session on each cluster alone; Multi its session on all of them in one table.
	Single map[string]Sample `json:"single"`
	Multi  Sample            `json:"multi"`
	// Together is kscope on each cluster alone, all of them started at once (a process each): the servers
	// under the same load as the table over all puts on them, on this one machine. First: any one's first
	// rows; complete: the last one complete; RSS: their sum.
	Together Sample `json:"together"`
	// FloorS is the server's floor per cluster: one whole GET of the namespace's pods as a Table without
	// objects (-1: failed); FloorAllS the same GETs to every cluster at once, until the last answered.
	FloorS      map[string]float64 `json:"floor_s"`
	FloorAllS   float64            `json:"floor_all_s"`
	FloorErrors []string           `json:"floor_errors,omitempty"`
}

// allClusters names the table over every cluster in a round's order; together, every cluster alone, all at
// once.
const (
	allClusters = "all"
	together    = "together"
)

// clusterBench is one `screenbench clusters` run.
type clusterBench struct {
	b        *bench // its tmux server, waitFor, quit and logf
	contexts []string
	clients  map[string]kubernetes.Interface
	kscope   string
}

func clustersCommand(args []string) error {
	fs := flag.NewFlagSet("clusters", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr), width: 160, height: 50}
	var contexts, kscope, out, report, from string
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the pods in every cluster (required)")
	fs.IntVar(&b.pods, "pods", 0, "pods in the namespace of each cluster (required; checked)")
	fs.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig")
	fs.StringVar(&contexts, "contexts", "admin,second,third", "the clusters' contexts, the first the kubeconfig's current one")
	fs.StringVar(&kscope, "kscope", "bin/kscope", "kscope binary")
	fs.IntVar(&b.runs, "runs", 3, "rounds (each: the floors, kscope on every cluster alone and on all of them)")
	fs.Float64Var(&b.maxLoad, "max-load", 1.5, "before each session, wait (up to 3 min) for the 1-minute load average to fall to this; the report marks a session that started above it")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&report, "report", "", "also write the markdown report to this file")
	fs.StringVar(&from, "from", "", "render the report of this results file, without measuring")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if from != "" {
		return renderClusterReport(from, report)
	}
	if b.namespace == "" || b.pods <= 0 || out == "" {
		return errors.New("--namespace, --pods and --out are required")
	}
	cb := &clusterBench{b: b, contexts: strings.Split(contexts, ","), clients: map[string]kubernetes.Interface{},
		kscope: abs(kscope)}
	b.kubeconfig = abs(b.kubeconfig)
	res, err := cb.run(out)
	if err != nil {
		return err
	}
	if report != "" {
		return os.WriteFile(report, []byte(clusterReport(res)), 0o644)
	}
	return nil
}

// connect makes a client per context and checks each namespace's pods.
func (cb *clusterBench) connect() error {
	for _, name := range cb.contexts {
		cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
			&clientcmd.ClientConfigLoadingRules{ExplicitPath: cb.b.kubeconfig},
			&clientcmd.ConfigOverrides{CurrentContext: name}).ClientConfig()
		if err != nil {
			return fmt.Errorf("context %s: %w", name, err)
		}
		cfg.QPS, cfg.Burst = 100, 100
		if cb.clients[name], err = kubernetes.NewForConfig(cfg); err != nil {
			return err
		}
		n, err := countPods(context.Background(), cb.clients[name], cb.b.namespace)
		if err != nil {
			return fmt.Errorf("count the pods of %s in %s: %w", cb.b.namespace, name, err)
		}
		if n != cb.b.pods {
			return fmt.Errorf("namespace %s has %d pods in %s, want %d", cb.b.namespace, n, name, cb.b.pods)
		}
	}
	cb.b.client = cb.clients[cb.contexts[0]]
	return nil
}

// run measures b.runs rounds and writes the results to out after each.
func (cb *clusterBench) run(out string) (*ClusterResults, error) {
	b := cb.b
	if err := cb.connect(); err != nil {
		return nil, err
	}
	var err error
	if b.tmux, err = startTmux("kscope-bench-clusters"); err != nil {
		return nil, err
	}
	defer b.tmux.close()
	res := &ClusterResults{Bench: "clusters", Namespace: b.namespace, Pods: b.pods, Contexts: cb.contexts,
		MaxLoad: b.maxLoad, Started: time.Now().UTC().Format(time.RFC3339), Machine: machine(),
		Versions: b.versions(cb.kscope, "")}
	for run := 1; run <= b.runs; run++ {
		res.Rounds = append(res.Rounds, cb.round(run))
		if err := writeJSON(out, res); err != nil {
			return nil, err
		}
	}
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Machine["loadavg_end"] = loadAvg()
	return res, writeJSON(out, res)
}

// round measures the floors, then each session once, in an order rotated by run (no session always comes
// first, after the floors' GETs, or last).
func (cb *clusterBench) round(run int) ClusterRound {
	b := cb.b
	b.waitQuiet()
	r := ClusterRound{Run: run, LoadAvg: loadAvg(), Single: map[string]Sample{}}
	cb.floors(&r)
	b.logf("round %d/%d (load %s): floors %v, all at once %.3fs", run, b.runs, r.LoadAvg, r.FloorS, r.FloorAllS)
	sessions := append(append([]string{}, cb.contexts...), allClusters, together)
	k := (run - 1) % len(sessions)
	r.Order = append(sessions[k:], sessions[:k]...)
	for _, name := range r.Order {
		time.Sleep(5 * time.Second)
		b.waitQuiet()
		switch name {
		case allClusters:
			r.Multi = cb.multiSession()
			b.logf("round %d, all clusters: %s", run, summary(r.Multi))
			continue
		case together:
			r.Together = cb.togetherSession()
			b.logf("round %d, each alone at once: %s", run, summary(r.Together))
			continue
		}
		r.Single[name] = cb.singleSession(name)
		b.logf("round %d, %s alone: %s", run, name, summary(r.Single[name]))
	}
	return r
}

// singleSession is kscope on one cluster: complete when its title reads pods(NS)[N], N a count the server
// reported, and not listing.
func (cb *clusterBench) singleSession(name string) Sample {
	ns := cb.b.namespace
	counts := sampleCounts(func() (int, error) { return countPods(context.Background(), cb.clients[name], ns) }, cb.b.pods)
	command := strings.Join([]string{"exec", cb.kscope, "--kubeconfig", cb.b.kubeconfig, "--context", name, "-n", ns, "pods"}, " ")
	return cb.session(name, command, counts, func(sc []string) (complete, listing bool) {
		t, ok := titleOf(sc)
		return ok && t.scope == ns && !t.listing && counts.seen(t.count), !ok || t.listing
	})
}

// multiSession is kscope on every cluster in one table: complete when its title reads
// pods @A,@B…(NS)[COUNT], COUNT a sum of the clusters' counts the servers reported, and the status line says
// every cluster is synced.
func (cb *clusterBench) multiSession() Sample {
	ns := cb.b.namespace
	counts := sampleCounts(func() (int, error) {
		sum := 0
		for _, name := range cb.contexts {
			n, err := countPods(context.Background(), cb.clients[name], ns)
			if err != nil {
				return 0, err
			}
			sum += n
		}
		return sum, nil
	}, cb.b.pods*len(cb.contexts))
	command := strings.Join([]string{"exec", cb.kscope, "--kubeconfig", cb.b.kubeconfig, "-n", ns, "pods",
		"@" + strings.Join(cb.contexts, ",@")}, " ")
	return cb.session(allClusters, command, counts, func(sc []string) (complete, listing bool) {
		t, ok := multiTitleOf(sc)
		synced := allSynced(sc, cb.contexts)
		return ok && t.scope == ns && strings.Join(t.contexts, ",") == strings.Join(cb.contexts, ",") &&
			!t.listing && counts.seen(t.count) && synced, !synced
	})
}

// session launches command and times the first screen of rows (and whether that screen said a list was
// still arriving) and the complete table, then lets it settle and reads its memory: RSS and peak (VmHWM).
func (cb *clusterBench) session(name, command string, counts *podCounts, check func([]string) (complete, listing bool)) Sample {
	stop := sync.OnceFunc(counts.stop) // sampling ends with the launch, before the RSS is read
	defer stop()
	return cb.b.session(name, command, check, stop)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// median returns the median of values (a failure counted as +Inf; NaN when there are none).
func median(values []float64) float64 {
	if len(values) == 0 {
		return math.NaN()
	}
	return medianAll(values)
}
