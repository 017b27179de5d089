package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// FarResults is one `screenbench far` (issue 51): kscope, k9s, kubectl and the server's floor through the
// far-link proxy (bench/cmd/farlink) at each round-trip time, round by round.
type FarResults struct {
	Bench     string            `json:"bench"` // "far"
	Namespace string            `json:"namespace"`
	Pods      int               `json:"pods"`
	Rate      string            `json:"rate"` // the cap of each direction
	RTTsMS    []int             `json:"rtts_ms"`
	Runs      int               `json:"runs"`
	Started   string            `json:"started"`
	Finished  string            `json:"finished"`
	Machine   map[string]string `json:"machine"`
	Versions  map[string]string `json:"versions"`
	Rounds    []FarRound        `json:"rounds"`
}

// FarRound is every tool once at one round-trip time, in the order they ran (rotated by round).
type FarRound struct {
	RTTMS int                  `json:"rtt_ms"`
	Run   int                  `json:"run"`
	Order []string             `json:"order"`
	Tools map[string]FarSample `json:"tools"`
}

// FarSample is one launch of one tool through the link: launch → first rows and → the complete table (for
// kubectl its exit, for the floor curl's own total), what crossed the link by then, the connections it
// opened and the requests the server's audit log recorded for it (its user's, until it had quit).
type FarSample struct {
	FirstS      float64  `json:"first_s,omitempty"`
	CompleteS   float64  `json:"complete_s"` // 0: failed
	BytesUp     int64    `json:"bytes_up"`
	BytesDown   int64    `json:"bytes_down"`
	Connections int64    `json:"connections"`
	Requests    int      `json:"requests"`
	LoadAvg     string   `json:"loadavg"`
	Errors      []string `json:"errors,omitempty"`
}

// farBench is one `screenbench far` run.
type farBench struct {
	b         *bench // its tmux server, client (straight to the server, not through the link), open and quit
	control   string // the farlink control endpoint's base URL
	audit     string // the API server's audit log
	user      string // the audited user every tool runs as
	rate      string
	rtts      []int
	tools     []tool // the TUIs (kscope, k9s)
	kubectl   bool
	floorArgs []string // curl's arguments for the floor, through the link
}

// farTools are the tools of one round, in their order before rotation.
const (
	farFloor   = "floor"
	farKubectl = "kubectl"
)

func farCommand(args []string) error {
	fs := flag.NewFlagSet("far", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr), width: 160, height: 50, maxLoad: 100}
	fb := &farBench{b: b}
	var kubeconfig, ctxName, benchCtx, proxy, kscope, k9s, k9sConfig, rtts, out, report, from string
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the pods (required)")
	fs.IntVar(&b.pods, "pods", 0, "pods in the namespace (required; checked)")
	fs.StringVar(&kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "the cluster's kubeconfig")
	fs.StringVar(&ctxName, "context", "tester", "context the tools use (its user's requests are the audit log's)")
	fs.StringVar(&benchCtx, "bench-context", "admin", "context of the bench's own requests (the pod counts), straight to the server: another user than --context's, so that they are not counted")
	fs.StringVar(&proxy, "proxy", "", "the farlink proxy's address, forwarding to the context's server (required)")
	fs.StringVar(&fb.control, "control", "", "the farlink control endpoint's address (required)")
	fs.StringVar(&fb.audit, "audit", "", "the API server's audit log (required)")
	fs.StringVar(&fb.rate, "rate", "50mbit", "bandwidth cap of each direction")
	fs.StringVar(&rtts, "rtts", "0,100,300", "round-trip times to measure at, in ms")
	fs.IntVar(&b.runs, "runs", 3, "rounds per round-trip time")
	fs.StringVar(&kscope, "kscope", "bin/kscope", "kscope binary")
	fs.StringVar(&k9s, "k9s", "", "k9s binary (empty: no k9s)")
	fs.StringVar(&k9sConfig, "k9s-config", "", "K9S_CONFIG_DIR for k9s")
	fs.BoolVar(&fb.kubectl, "kubectl", true, "measure `kubectl get pods` too")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&report, "report", "", "also write the markdown report to this file")
	fs.StringVar(&from, "from", "", "render the report of this results file, without measuring")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if from != "" {
		return renderFarReport(from, report)
	}
	if b.namespace == "" || b.pods <= 0 || out == "" || proxy == "" || fb.control == "" || fb.audit == "" {
		return errors.New("--namespace, --pods, --proxy, --control, --audit and --out are required")
	}
	for _, s := range splitList(rtts) {
		ms, err := strconv.Atoi(s)
		if err != nil || ms < 0 {
			return fmt.Errorf("read --rtts: %q is not a number of ms", s)
		}
		fb.rtts = append(fb.rtts, ms)
	}
	work, err := os.MkdirTemp("", "screenbench-far-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := fb.linkConfig(abs(kubeconfig), ctxName, proxy, work); err != nil {
		return err
	}
	fb.tools = append(fb.tools, b.kscopeTool("kscope", abs(kscope)))
	if k9s != "" {
		fb.tools = append(fb.tools, b.k9sTool(abs(k9s), abs(k9sConfig)))
	}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(&clientcmd.ClientConfigLoadingRules{ExplicitPath: abs(kubeconfig)},
		&clientcmd.ConfigOverrides{CurrentContext: benchCtx}).ClientConfig()
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if b.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	if err := b.checkPods(); err != nil {
		return err
	}
	if b.tmux, err = startTmux("kscope-bench-far"); err != nil {
		return err
	}
	defer b.tmux.close()
	res := fb.run(out, abs(kscope), abs(k9s))
	if err := writeJSON(out, res); err != nil {
		return err
	}
	if report != "" {
		return os.WriteFile(report, []byte(farReport(res)), 0o644)
	}
	return nil
}

// linkConfig writes a kubeconfig whose context ctxName reaches its server through the proxy (the same TLS
// name: the proxy listens on the server's loopback address), and curl's arguments for the floor: the same
// credentials, gzip, a Table without objects of the namespace's pods.
func (fb *farBench) linkConfig(kubeconfig, ctxName, proxy, work string) error {
	raw, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		return fmt.Errorf("read the kubeconfig: %w", err)
	}
	kctx, ok := raw.Contexts[ctxName]
	if !ok {
		return fmt.Errorf("the kubeconfig has no context %q", ctxName)
	}
	cluster, user := raw.Clusters[kctx.Cluster], raw.AuthInfos[kctx.AuthInfo]
	if cluster == nil || user == nil || user.Token == "" {
		return fmt.Errorf("context %q: want a cluster and a user with a token", ctxName)
	}
	server, err := url.Parse(cluster.Server)
	if err != nil {
		return fmt.Errorf("read the server's address: %w", err)
	}
	server.Host = proxy
	cluster.Server = server.String()
	raw.CurrentContext, fb.user = ctxName, kctx.AuthInfo
	fb.b.kubeconfig = filepath.Join(work, "far.kubeconfig")
	if err := clientcmd.WriteToFile(*raw, fb.b.kubeconfig); err != nil {
		return fmt.Errorf("write the link's kubeconfig: %w", err)
	}
	ca := filepath.Join(work, "ca.crt")
	if err := os.WriteFile(ca, cluster.CertificateAuthorityData, 0o600); err != nil {
		return err
	}
	fb.floorArgs = []string{"-sS", "--fail", "--compressed", "--cacert", ca, "-o", "/dev/null",
		"-H", "Authorization: Bearer " + user.Token, "-H", "Accept: " + tableAccept,
		"-w", "%{time_total}", server.String() + "/api/v1/namespaces/" + fb.b.namespace + "/pods?includeObject=None"}
	return nil
}

// run warms every tool's discovery cache with one launch on the bare link, then measures b.runs rounds at
// each round-trip time, each tool once per round in an order rotated by round.
func (fb *farBench) run(out, kscopeBin, k9sBin string) *FarResults {
	b := fb.b
	res := &FarResults{Bench: "far", Namespace: b.namespace, Pods: b.pods, Rate: fb.rate, RTTsMS: fb.rtts, Runs: b.runs,
		Started: time.Now().UTC().Format(time.RFC3339), Machine: machine(), Versions: b.versions(kscopeBin, k9sBin)}
	names := []string{farFloor}
	for _, t := range fb.tools {
		names = append(names, t.name)
	}
	if fb.kubectl {
		names = append(names, farKubectl)
	}
	if err := fb.shape(0); err != nil {
		b.logf("shape: %s", err)
	}
	for _, name := range names {
		s := fb.measure(name)
		b.logf("warm-up %s: %s", name, farSummary(s))
	}
	for _, rtt := range fb.rtts {
		if err := fb.shape(rtt); err != nil {
			b.logf("shape: %s", err)
			continue
		}
		for run := 1; run <= b.runs; run++ {
			r := FarRound{RTTMS: rtt, Run: run, Order: rotated(names, run), Tools: map[string]FarSample{}}
			for _, name := range r.Order {
				r.Tools[name] = fb.measure(name)
				b.logf("rtt %d ms, round %d/%d, %s: %s", rtt, run, b.runs, name, farSummary(r.Tools[name]))
			}
			res.Rounds = append(res.Rounds, r)
			if err := writeJSON(out, res); err != nil { // keep what we have
				b.logf("write: %s", err)
			}
		}
	}
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Machine["loadavg_end"] = loadAvg()
	return res
}

// shape sets the link's round trip to rtt ms (half of it each way) at the bench's rate.
func (fb *farBench) shape(rttMS int) error {
	q := url.Values{"delay": {(time.Duration(rttMS) * time.Millisecond / 2).String()}, "rate": {fb.rate}}
	resp, err := http.Post("http://"+fb.control+"/shape?"+q.Encode(), "", nil)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("shape: %s", resp.Status)
	}
	return nil
}

// linkStats are the proxy's counts (bench/cmd/farlink's Stats).
type linkStats struct {
	Connections int64 `json:"connections"`
	Up          int64 `json:"bytes_up"`
	Down        int64 `json:"bytes_down"`
}

func (fb *farBench) stats() (linkStats, error) {
	var s linkStats
	resp, err := http.Get("http://" + fb.control + "/stats")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	return s, json.NewDecoder(resp.Body).Decode(&s)
}

// measure runs one launch of the named tool through the link and returns what it measured.
func (fb *farBench) measure(name string) (s FarSample) {
	b := fb.b
	time.Sleep(2 * time.Second) // the previous tool's connections closed, its last audit events written
	s.LoadAvg = loadAvg()
	auditFrom := fileSize(fb.audit)
	before, err := fb.stats()
	if err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("link stats: %s", err))
		return s
	}
	var atComplete linkStats
	switch name {
	case farFloor:
		start := time.Now()
		outp, err := exec.Command("curl", fb.floorArgs...).Output()
		atComplete, _ = fb.stats()
		if took, perr := strconv.ParseFloat(strings.TrimSpace(string(outp)), 64); err == nil && perr == nil {
			s.CompleteS = took
		} else {
			s.Errors = append(s.Errors, fmt.Sprintf("curl: %v %s (after %s)", err, outp, time.Since(start)))
		}
	case farKubectl:
		k := b.measureKubectl(false)
		atComplete, _ = fb.stats()
		s.FirstS, s.CompleteS, s.Errors = k.FirstS, k.LaunchS, k.Errors
	default:
		var t tool
		for _, c := range fb.tools {
			if c.name == name {
				t = c
			}
		}
		counts := b.serverCounts(b.namespace, b.pods)
		var ts Sample
		pid := b.open(t, t.command(false), titleCheck(counts.seen), &ts)
		atComplete, _ = fb.stats()
		counts.stop()
		s.FirstS, s.CompleteS, s.Errors = ts.FirstS, ts.LaunchS, ts.Errors
		if pid != 0 {
			time.Sleep(3 * time.Second) // what it asks for beside and after the table (access, metrics)
		}
		b.quit(t)
	}
	after, err := fb.stats()
	if err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("link stats: %s", err))
	}
	s.BytesUp, s.BytesDown = atComplete.Up-before.Up, atComplete.Down-before.Down
	s.Connections = after.Connections - before.Connections
	time.Sleep(time.Second) // the audit events of requests that ended with the tool
	if s.Requests, err = auditRequests(fb.audit, auditFrom, fb.user); err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("audit log: %s", err))
	}
	return s
}

// fileSize is path's size now (0 when it cannot be read).
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// auditRequests counts the requests of user in the audit log from offset on: the distinct audit IDs of
// its events (a watch has two stages, ResponseStarted and ResponseComplete).
func auditRequests(path string, offset int64, user string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, 0); err != nil {
		return 0, err
	}
	ids := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var ev struct {
			AuditID string `json:"auditID"`
			User    struct {
				Username string `json:"username"`
			} `json:"user"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.User.Username == user {
			ids[ev.AuditID] = true
		}
	}
	return len(ids), sc.Err()
}

// farSummary is one sample as the log prints it.
func farSummary(s FarSample) string {
	return fmt.Sprintf("complete %.2fs first %.2fs up %d B down %d B conns %d requests %d load %s errors %v",
		s.CompleteS, s.FirstS, s.BytesUp, s.BytesDown, s.Connections, s.Requests, s.LoadAvg, s.Errors)
}
