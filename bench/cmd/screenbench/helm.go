package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// HelmResults is one `screenbench helm` (issue 52): Helm's SDK list action, kscope's Helm view and k9s's on
// one namespace of releases, round by round.
type HelmResults struct {
	Bench     string            `json:"bench"` // "helm"
	Namespace string            `json:"namespace"`
	Releases  int               `json:"releases"`
	Revisions int               `json:"revisions"`
	LoadS     float64           `json:"load_s,omitempty"` // helmload's time to write the load, as the script measured it
	Runs      int               `json:"runs"`
	LimitS    float64           `json:"limit_s"` // a launch not complete by then failed
	Started   string            `json:"started"`
	Finished  string            `json:"finished"`
	Machine   map[string]string `json:"machine"`
	Versions  map[string]string `json:"versions"`
	Rounds    []HelmRound       `json:"rounds"`
	// Profile names kscope's CPU profile of one extra, unmeasured launch ("" when none was taken).
	Profile string `json:"profile,omitempty"`
}

// HelmRound is every tool once, in the order they ran (rotated by round).
type HelmRound struct {
	Run   int                   `json:"run"`
	Order []string              `json:"order"`
	Tools map[string]HelmSample `json:"tools"`
}

// HelmSample is one launch of one tool. For a TUI: launch → the first frame with the table's title, → the
// first release row, → the title's count equal to the releases, → complete (that count, the latest chart on
// every visible row, and no "reading the charts" on screen); its RSS 10 s after complete and its peak. For the
// SDK: CompleteS is the list action's Run, InitS its configuration's set-up, ProcessS the whole process, and
// PeakRSSMB the process's peak; Listed is how many releases it listed.
type HelmSample struct {
	FrameS    float64 `json:"frame_s,omitempty"`
	FirstS    float64 `json:"first_s,omitempty"`
	CountS    float64 `json:"count_s,omitempty"`
	CompleteS float64 `json:"complete_s"` // 0: failed
	InitS     float64 `json:"init_s,omitempty"`
	ProcessS  float64 `json:"process_s,omitempty"`
	Listed    int     `json:"listed,omitempty"`
	// MostLeft is the most charts kscope's status line said were left to read, LastLeft the last it said (at
	// a failure what was still left), each with the capture's time since launch (the read rate is
	// (MostLeft-LastLeft)/(LastAtS-MostAtS)).
	MostLeft  int      `json:"most_left,omitempty"`
	MostAtS   float64  `json:"most_at_s,omitempty"`
	LastLeft  int      `json:"last_left,omitempty"`
	LastAtS   float64  `json:"last_at_s,omitempty"`
	RSSMB     float64  `json:"rss_mb,omitempty"`
	PeakRSSMB float64  `json:"peak_rss_mb,omitempty"`
	LoadStart string   `json:"loadavg_start"`
	LoadEnd   string   `json:"loadavg_end"`
	Errors    []string `json:"errors,omitempty"`
}

// The tools of a helm round, in their order before rotation.
const (
	helmSDK    = "sdk-list"
	helmKscope = "kscope"
	helmK9s    = "k9s"
)

// helmBench is one `screenbench helm` run.
type helmBench struct {
	b         *bench // its tmux server and log; b.namespace is the releases' namespace
	releases  int
	revisions int
	limit     time.Duration
	kscope    string
	k9s       string // "" : no k9s
	k9sConfig string
	helmload  string
	profile   string // write kscope's CPU profile of one extra launch here ("": none)
}

func helmCommand(args []string) error {
	fs := flag.NewFlagSet("helm", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr), width: 160, height: 50}
	hb := &helmBench{b: b}
	var out, report, from string
	var loadS float64
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the releases (required)")
	fs.IntVar(&hb.releases, "releases", 1000, "releases in the namespace (checked by the SDK's list)")
	fs.IntVar(&hb.revisions, "revisions", 5, "revisions of each release (the latest's chart is version 1.REVISIONS.0)")
	fs.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "the cluster's kubeconfig")
	fs.IntVar(&b.runs, "runs", 3, "rounds")
	fs.DurationVar(&hb.limit, "limit", 120*time.Second, "a launch not complete by then counts as failed")
	fs.StringVar(&hb.kscope, "kscope", "bin/kscope", "kscope binary")
	fs.StringVar(&hb.k9s, "k9s", "", "k9s binary (empty: no k9s)")
	fs.StringVar(&hb.k9sConfig, "k9s-config", "", "K9S_CONFIG_DIR for k9s")
	fs.StringVar(&hb.helmload, "helmload", "bin/helmload", "helmload binary (its --list is the SDK's list action)")
	fs.StringVar(&hb.profile, "profile", "", "after the rounds, one more kscope launch with --cpuprofile to this file")
	fs.Float64Var(&loadS, "load-s", 0, "how long writing the load took (for the report)")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&report, "report", "", "also write the markdown report to this file")
	fs.StringVar(&from, "from", "", "render the report of this results file, without measuring")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if from != "" {
		return renderHelmReport(from, report)
	}
	if b.namespace == "" || hb.releases <= 0 || out == "" {
		return errors.New("--namespace, --releases and --out are required")
	}
	b.kubeconfig, hb.kscope, hb.k9s, hb.k9sConfig, hb.helmload = abs(b.kubeconfig), abs(hb.kscope), abs(hb.k9s), abs(hb.k9sConfig), abs(hb.helmload)
	hb.profile = abs(hb.profile)
	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	if b.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	if s := hb.measureSDK(); s.Listed != hb.releases {
		return fmt.Errorf("the SDK lists %d releases in %s, not %d: %v", s.Listed, b.namespace, hb.releases, s.Errors)
	}
	if b.tmux, err = startTmux("kscope-bench-helm"); err != nil {
		return err
	}
	defer b.tmux.close()
	res := hb.run(out)
	res.LoadS = loadS
	if err := writeJSON(out, res); err != nil {
		return err
	}
	if report != "" {
		return os.WriteFile(report, []byte(helmReport(res)), 0o644)
	}
	return nil
}

// run measures b.runs rounds, each tool once per round in an order rotated by round (after one unmeasured
// launch of each TUI: discovery cached on disk), then the profiled kscope launch if asked.
func (hb *helmBench) run(out string) *HelmResults {
	b := hb.b
	res := &HelmResults{Bench: "helm", Namespace: b.namespace, Releases: hb.releases, Revisions: hb.revisions, Runs: b.runs,
		LimitS: hb.limit.Seconds(), Started: time.Now().UTC().Format(time.RFC3339), Machine: machine(),
		Versions: b.versions(hb.kscope, hb.k9s)}
	names := []string{helmSDK, helmKscope}
	if hb.k9s != "" {
		names = append(names, helmK9s)
	}
	for _, name := range names[1:] {
		b.logf("warm-up %s (until its first rows): %s", name, helmSummary(hb.measure(name, nil, true)))
	}
	for run := 1; run <= b.runs; run++ {
		r := HelmRound{Run: run, Order: rotated(names, run), Tools: map[string]HelmSample{}}
		for _, name := range r.Order {
			r.Tools[name] = hb.measure(name, nil, false)
			b.logf("round %d/%d, %s: %s", run, b.runs, name, helmSummary(r.Tools[name]))
		}
		res.Rounds = append(res.Rounds, r)
		if err := writeJSON(out, res); err != nil { // keep what we have
			b.logf("write: %s", err)
		}
	}
	if hb.profile != "" {
		s := hb.measure(helmKscope, []string{"--cpuprofile", hb.profile}, false)
		b.logf("profiled kscope launch (not counted): %s", helmSummary(s))
		if s.CompleteS > 0 {
			res.Profile = filepath.Base(hb.profile)
		}
	}
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Machine["loadavg_end"] = loadAvg()
	return res
}

// measure runs one launch of the named tool (extra: more kscope flags) and returns what it measured; warm
// (a warm-up) ends it at its first rows, without settling.
func (hb *helmBench) measure(name string, extra []string, warm bool) (s HelmSample) {
	time.Sleep(2 * time.Second) // the previous tool gone, its connections closed
	if name == helmSDK {
		return hb.measureSDK()
	}
	b := hb.b
	s.LoadStart = loadAvg()
	defer func() { s.LoadEnd = loadAvg() }()
	var command string
	var env []string
	switch name {
	case helmKscope:
		args := append([]string{"exec", hb.kscope, "--kubeconfig", b.kubeconfig, "-n", b.namespace}, extra...)
		command = strings.Join(append(args, "helm"), " ")
	case helmK9s:
		command = strings.Join([]string{"exec", hb.k9s, "--kubeconfig", b.kubeconfig, "-n", b.namespace, "-c", "helm"}, " ")
		env = []string{"K9S_CONFIG_DIR=" + hb.k9sConfig}
	}
	t := tool{name: name}
	defer b.quit(t)
	b.tmux.kill(session)
	start := time.Now()
	if err := b.tmux.launch(session, b.width, b.height, env, command); err != nil {
		b.failf2(&s.Errors, name, "launch: %s", err)
		return s
	}
	pid, err := b.tmux.pid(session)
	if err != nil {
		b.failf2(&s.Errors, name, "pid: %s", err)
		return s
	}
	w := &helmWatch{releases: hb.releases, chart: helmChartVersion(hb.revisions)}
	took, last, err := b.waitFor(start, launchPoll, hb.limit, func(sc []string) bool {
		return w.complete(sc, time.Since(start)) || (warm && w.first > 0)
	})
	s.FrameS, s.FirstS, s.CountS = w.frame.Seconds(), w.first.Seconds(), w.count.Seconds()
	s.MostLeft, s.MostAtS, s.LastLeft, s.LastAtS = w.mostLeft, w.mostAt.Seconds(), w.lastLeft, w.lastAt.Seconds()
	if err != nil {
		b.failf2(&s.Errors, name, "launch: not complete after %s (title count %s); last screen's status: %s", hb.limit, titleText(last), lastLine(last))
		_, s.PeakRSSMB, _ = memoryMB(pid)
		return s
	}
	s.CompleteS = took.Seconds()
	if warm {
		return s
	}
	time.Sleep(settle)
	if s.RSSMB, s.PeakRSSMB, err = memoryMB(pid); err != nil {
		b.failf2(&s.Errors, name, "memory: %s", err)
	}
	return s
}

// measureSDK runs helmload --list (Helm's list action alone, as `helm list` runs it) and reads its times.
func (hb *helmBench) measureSDK() (s HelmSample) {
	s.LoadStart = loadAvg()
	defer func() { s.LoadEnd = loadAvg() }()
	cmd := exec.Command(hb.helmload, "--kubeconfig", hb.b.kubeconfig, "--namespace", hb.b.namespace, "--list")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	outp, err := cmd.Output()
	s.ProcessS = time.Since(start).Seconds()
	if err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("helmload --list: %s %s", err, strings.TrimSpace(stderr.String())))
		return s
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.PeakRSSMB = float64(ru.Maxrss) / 1024 // kB on Linux
	}
	listed, initS, runS, err := parseHelmList(string(outp))
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
		return s
	}
	s.Listed, s.InitS = listed, initS
	if listed != hb.releases {
		s.Errors = append(s.Errors, fmt.Sprintf("listed %d releases, want %d", listed, hb.releases))
		return s
	}
	s.CompleteS = runS
	return s
}

// parseHelmList reads helmload --list's line `releases=N init_s=X run_s=Y`.
func parseHelmList(out string) (releases int, initS, runS float64, err error) {
	seen := 0
	for _, f := range strings.Fields(out) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		var perr error
		switch k {
		case "releases":
			releases, perr = strconv.Atoi(v)
		case "init_s":
			initS, perr = strconv.ParseFloat(v, 64)
		case "run_s":
			runS, perr = strconv.ParseFloat(v, 64)
		default:
			continue
		}
		if perr != nil {
			return 0, 0, 0, fmt.Errorf("helmload --list: %s: %w", f, perr)
		}
		seen++
	}
	if seen != 3 {
		return 0, 0, 0, fmt.Errorf("helmload --list: want releases=, init_s= and run_s= in %q", strings.TrimSpace(out))
	}
	return releases, initS, runS, nil
}

// failf2 logs a failed phase of the named tool and records it in errs.
func (b *bench) failf2(errs *[]string, name, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	b.logf("%s: %s", name, msg)
	*errs = append(*errs, msg)
}

// helmSummary is one sample as the log prints it.
func helmSummary(s HelmSample) string {
	w := &helmWatch{mostLeft: s.MostLeft, lastLeft: s.LastLeft, mostAt: secondsOf(s.MostAtS), lastAt: secondsOf(s.LastAtS)}
	return fmt.Sprintf("complete %.2fs frame %.2fs first %.2fs count %.2fs charts left %d..%d at %.1f/s listed %d init %.2fs process %.2fs rss %.0f MB peak %.0f MB load %s → %s errors %v",
		s.CompleteS, s.FrameS, s.FirstS, s.CountS, s.MostLeft, s.LastLeft, w.readRate(), s.Listed, s.InitS, s.ProcessS, s.RSSMB, s.PeakRSSMB, s.LoadStart, s.LoadEnd, s.Errors)
}

// secondsOf is s seconds as a duration.
func secondsOf(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// titleText is the Helm view's title count on the screen, or "none".
func titleText(sc []string) string {
	if n, ok := helmTitleCount(sc); ok {
		return strconv.Itoa(n)
	}
	return "none"
}
