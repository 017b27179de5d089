package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// ViewResults is one `screenbench views`: kscope's pods table against the server's own list in each state the
// server can be in, and kscope's other views of the same namespace, round by round (issue 34).
type ViewResults struct {
	Bench     string            `json:"bench"` // "views"
	Namespace string            `json:"namespace"`
	Pods      int               `json:"pods"`
	MaxLoad   float64           `json:"max_load"`
	Started   string            `json:"started"`
	Finished  string            `json:"finished"`
	Machine   map[string]string `json:"machine"`
	Versions  map[string]string `json:"versions"`
	Rounds    []ViewRound       `json:"rounds"`
}

// ViewRound is one round: every server state, then every view, each in an order rotated by round.
type ViewRound struct {
	Run    int                   `json:"run"`
	States map[string]StateRound `json:"states"`
	Views  map[string]ViewSample `json:"views"`
}

// StateRound is the pods table in one server state: the floor (one whole GET of the pods as a Table without
// objects, -1 when it failed) and kscope's launch, in the namespace and in all namespaces. The state is made
// afresh before each measure.
type StateRound struct {
	FloorS    float64 `json:"floor_s"`
	FloorAllS float64 `json:"floor_all_s"`
	FloorRows int     `json:"floor_all_rows"` // rows of the all-namespaces floor (the cluster's pods)
	// FloorPairS is the floor of a table of several namespaces: the Table without objects and the objects'
	// metadata in protobuf (the Table's rows carry no namespace), both whole, asked for at once (-1: failed).
	FloorPairS  float64  `json:"floor_pair_s,omitempty"`
	FloorErrors []string `json:"floor_errors,omitempty"`
	Namespace   Sample   `json:"namespace"`
	All         Sample   `json:"all"`
	// Prepared holds what making the state took or said (a compaction's revision, a restart's time to ready).
	Prepared []string `json:"prepared,omitempty"`
}

// ViewSample is one view of the namespace: its launch (for the tree and the HEALTH column, the pods table
// they are opened from), then, for those two, the key → the view complete, with the RSS before the key and
// after it settled.
type ViewSample struct {
	Launch      Sample  `json:"launch"`
	KeyS        float64 `json:"key_s,omitempty"` // key → complete (0: not measured, -1: failed)
	RSSBeforeMB float64 `json:"rss_before_mb,omitempty"`
	RSSAfterMB  float64 `json:"rss_after_mb,omitempty"`
	PeakRSSMB   float64 `json:"peak_rss_mb,omitempty"`
	Line        string  `json:"line,omitempty"` // what the view said when complete (the tree's line)
}

// The server states (issue 34: fast in every state the server can be in) and the views.
const (
	stateSettled   = "settled"   // as it is: the pods long created, the watch cache warm
	stateCompacted = "compacted" // etcd compacted to its current revision just before
	stateRestarted = "restarted" // the API server killed and started again just before (its watch cache empty)

	viewHealth = "health" // shift-h on the pods table: the HEALTH column filled
	viewTree   = "tree"   // t on the first pod: the tree complete
	viewCustom = "custom" // pods -o custom-columns=…: the table complete
	viewAll    = "all"    // `kscope -n NS all`: the table of the category complete
)

// viewBench is one `screenbench views` run.
type viewBench struct {
	b          *bench // its tmux server, client, waitFor, quit and logf
	kscope     string
	devcluster []string // the devcluster command (with its --cache)
	states     []string
	views      []string
}

func viewsCommand(args []string) error {
	fs := flag.NewFlagSet("views", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr), width: 160, height: 50}
	vb := &viewBench{}
	var kscope, devcluster, devcache, states, views, out, report, from string
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the pods (required)")
	fs.IntVar(&b.pods, "pods", 0, "pods in the namespace (required; checked)")
	fs.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig")
	fs.StringVar(&kscope, "kscope", "bin/kscope", "kscope binary")
	fs.StringVar(&devcluster, "devcluster", "", "devcluster binary (compacts etcd and restarts the API server; required for those states)")
	fs.StringVar(&devcache, "devcluster-cache", "", "the devcluster's --cache folder")
	fs.StringVar(&states, "states", strings.Join([]string{stateSettled, stateCompacted, stateRestarted}, ","), "server states to measure the pods table in")
	fs.StringVar(&views, "views", strings.Join([]string{viewHealth, viewTree, viewCustom, viewAll}, ","), "views to measure (empty: none)")
	fs.IntVar(&b.runs, "runs", 3, "rounds")
	fs.Float64Var(&b.maxLoad, "max-load", 1.5, "before each measure, wait (up to 3 min) for the 1-minute load average to fall to this; the report marks one that started above it")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&report, "report", "", "also write the markdown report to this file")
	fs.StringVar(&from, "from", "", "render the report of this results file, without measuring")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if from != "" {
		return renderViewReport(from, report)
	}
	if b.namespace == "" || b.pods <= 0 || out == "" {
		return errors.New("--namespace, --pods and --out are required")
	}
	vb.b, vb.kscope, b.kubeconfig = b, abs(kscope), abs(b.kubeconfig)
	vb.states, vb.views = splitList(states), splitList(views)
	if devcluster != "" {
		vb.devcluster = []string{abs(devcluster)}
		if devcache != "" {
			vb.devcluster = append(vb.devcluster, "--cache", abs(devcache))
		}
	}
	for _, s := range vb.states {
		if !slices.Contains([]string{stateSettled, stateCompacted, stateRestarted}, s) {
			return fmt.Errorf("unknown state %q", s)
		}
		if s != stateSettled && vb.devcluster == nil {
			return fmt.Errorf("state %s needs --devcluster", s)
		}
	}
	for _, v := range vb.views {
		if !slices.Contains([]string{viewHealth, viewTree, viewCustom, viewAll}, v) {
			return fmt.Errorf("unknown view %q", v)
		}
	}
	res, err := vb.run(out)
	if err != nil {
		return err
	}
	if report != "" {
		return os.WriteFile(report, []byte(viewReport(res)), 0o644)
	}
	return nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// run measures b.runs rounds and writes the results to out after each.
func (vb *viewBench) run(out string) (*ViewResults, error) {
	b := vb.b
	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = 100, 100
	if b.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if err := b.checkPods(); err != nil {
		return nil, err
	}
	if b.tmux, err = startTmux("kscope-bench-views"); err != nil {
		return nil, err
	}
	defer b.tmux.close()
	res := &ViewResults{Bench: "views", Namespace: b.namespace, Pods: b.pods, MaxLoad: b.maxLoad,
		Started: time.Now().UTC().Format(time.RFC3339), Machine: machine(), Versions: b.versions(vb.kscope, "")}
	for run := 1; run <= b.runs; run++ {
		res.Rounds = append(res.Rounds, vb.round(run))
		if err := writeJSON(out, res); err != nil {
			return nil, err
		}
	}
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Machine["loadavg_end"] = loadAvg()
	return res, writeJSON(out, res)
}

// rotated returns items rotated left by run-1 (no item always comes first or last).
func rotated(items []string, run int) []string {
	if len(items) == 0 {
		return nil
	}
	k := (run - 1) % len(items)
	return append(append([]string{}, items[k:]...), items[:k]...)
}

// round measures the pods table in each state, then each view.
func (vb *viewBench) round(run int) ViewRound {
	r := ViewRound{Run: run, States: map[string]StateRound{}, Views: map[string]ViewSample{}}
	for _, st := range rotated(vb.states, run) {
		r.States[st] = vb.stateRound(st)
		vb.b.logf("round %d/%d, %s: %s", run, vb.b.runs, st, stateSummary(r.States[st]))
	}
	for _, v := range rotated(vb.views, run) {
		vb.b.waitQuiet()
		r.Views[v] = vb.view(v)
		vb.b.logf("round %d/%d, %s: %s", run, vb.b.runs, v, viewSummary(r.Views[v]))
	}
	return r
}

// stateRound measures the floor and kscope's launch in state st, in the namespace and in all namespaces,
// making the state afresh before each.
func (vb *viewBench) stateRound(st string) (r StateRound) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ns := vb.b.namespace
	vb.prepare(ctx, st, &r)
	took, _, err := tableGet(ctx, vb.b.client, ns, vb.b.pods)
	r.FloorS = floorSeconds(took, err, "namespace", &r)
	vb.prepare(ctx, st, &r)
	r.Namespace = vb.podsTable(false)
	vb.prepare(ctx, st, &r)
	took, r.FloorRows, err = tableGet(ctx, vb.b.client, "", -1)
	r.FloorAllS = floorSeconds(took, err, "all namespaces", &r)
	vb.prepare(ctx, st, &r)
	took, err = pairGet(ctx, vb.b.client, "")
	r.FloorPairS = floorSeconds(took, err, "all namespaces, rows and metadata", &r)
	vb.prepare(ctx, st, &r)
	r.All = vb.podsTable(true)
	return r
}

// floorSeconds is a floor GET's time, or -1 with its error kept in r.
func floorSeconds(took time.Duration, err error, where string, r *StateRound) float64 {
	if err != nil {
		r.FloorErrors = append(r.FloorErrors, where+": "+err.Error())
		return -1
	}
	return took.Seconds()
}

// prepare waits for a quiet machine, then makes state st: nothing for settled, an etcd compaction, or the
// API server killed and started again (until its /readyz answers ok). What it took is recorded in r.
func (vb *viewBench) prepare(ctx context.Context, st string, r *StateRound) {
	vb.b.waitQuiet()
	switch st {
	case stateCompacted:
		out, err := exec.CommandContext(ctx, vb.devcluster[0], append(vb.devcluster[1:], "compact")...).CombinedOutput()
		switch {
		case err != nil && strings.Contains(string(out), "required revision has been compacted"):
			r.Prepared = append(r.Prepared, "compacted already at etcd's current revision (nothing written since)")
		case err != nil:
			r.Prepared = append(r.Prepared, "compact: "+err.Error()+": "+lastOutputLine(out))
		default:
			r.Prepared = append(r.Prepared, lastOutputLine(out))
		}
	case stateRestarted:
		start := time.Now()
		if err := vb.restart(ctx); err != nil {
			r.Prepared = append(r.Prepared, err.Error())
		} else if err := vb.waitReady(ctx); err != nil {
			r.Prepared = append(r.Prepared, "readyz: "+err.Error())
		}
		r.Prepared = append(r.Prepared, fmt.Sprintf("restarted, ready in %.1fs", time.Since(start).Seconds()))
	}
}

// restart kills the API server and starts it again. A killed process's port can stay taken a moment after
// it is gone, which `devcluster up` refuses: it is tried again for up to 10 s.
func (vb *viewBench) restart(ctx context.Context) error {
	run := func(args ...string) ([]byte, error) {
		return exec.CommandContext(ctx, vb.devcluster[0], append(vb.devcluster[1:], args...)...).CombinedOutput()
	}
	if out, err := run("kill", "kube-apiserver"); err != nil {
		return fmt.Errorf("kill: %w: %s", err, lastOutputLine(out))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		out, err := run("up")
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) || !strings.Contains(string(out), "is in use") {
			return fmt.Errorf("up: %w: %s", err, lastOutputLine(out))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitReady waits for the API server's /readyz to answer ok.
func (vb *viewBench) waitReady(ctx context.Context) error {
	for {
		body, err := vb.b.client.CoreV1().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err == nil && string(body) == "ok" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready: %v", err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// lastOutputLine is a command's last line of output.
func lastOutputLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
