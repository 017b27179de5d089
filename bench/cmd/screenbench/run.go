package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// tool is one program under test.
type tool struct {
	name string
	// command returns the shell command line that starts the TUI on the namespace's pods (on every
	// namespace's if all), with extra flags.
	command func(all bool, extra ...string) string
	env     []string
	// sortKey sorts by NAME; sortPrimes is how many presses come before the measured one (the first press
	// may only select the column).
	sortKey    string
	sortPrimes int
	// otherSortKey sorts by IP, a column other than the current one, after the otherSortPrimes keys.
	otherSortKey    string
	otherSortPrimes []string
	// liveFilter: the tool filters while the user types (k9s), not on Enter (kscope).
	liveFilter bool
}

// bench is one `screenbench run`.
type bench struct {
	namespace  string
	pods       int
	kubeconfig string
	patchload  string
	// before is an earlier kscope binary measured as beforeTool ("": none).
	before     string
	runs       int
	width      int
	height     int
	profileDir string
	tools      []tool
	kubectl    bool
	runsOf     string
	maxLoad    float64
	launchOnly bool // measure the launch only (figureIDs)
	allNS      bool // also measure launches in all namespaces
	skipped    map[string]string

	tmux   *tmuxServer
	client kubernetes.Interface
	probes int // probe patches sent so far (unique markers)
	log    *bufio.Writer
}

func runCommand(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr), skipped: map[string]string{}}
	var kscope, before, k9s, k9sConfig, out, only string
	var k9sMax int
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the pods (required)")
	fs.IntVar(&b.pods, "pods", 0, "number of pods in the namespace (required; checked)")
	fs.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig")
	fs.StringVar(&b.patchload, "patchload", "bin/patchload", "patchload binary")
	fs.IntVar(&b.runs, "runs", 3, "runs per tool (figures are medians)")
	fs.IntVar(&b.width, "width", 160, "terminal columns")
	fs.IntVar(&b.height, "height", 50, "terminal lines")
	fs.StringVar(&b.profileDir, "profile-dir", "", "if set, one extra kscope run with --cpuprofile/--memprofile into this folder")
	fs.StringVar(&kscope, "kscope", "bin/kscope", "kscope binary")
	fs.StringVar(&before, "kscope-before", "", "an earlier kscope binary, measured as the tool kscope-before (in --tools) beside kscope, the same way")
	fs.StringVar(&k9s, "k9s", "", "k9s binary (empty: skip k9s)")
	fs.StringVar(&k9sConfig, "k9s-config", "", "K9S_CONFIG_DIR for k9s")
	fs.StringVar(&only, "tools", "kscope,k9s,kubectl", "tools to measure")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&b.runsOf, "runs-of", "", "fewer runs for some tools, e.g. k9s=1 (its runs take minutes at 50k pods)")
	fs.Float64Var(&b.maxLoad, "max-load", 1.5, "before each run, wait (up to 3 min) for the 1-minute load average to fall to this")
	fs.BoolVar(&b.allNS, "all-namespaces", true, "also time each tool's launch in all namespaces (-A) and its RSS settled")
	fs.BoolVar(&b.launchOnly, "launch-only", false, "measure each session's launch only (first screen, complete table, RSS settled), not the phases after it (idle, churn, latency, filter, sort)")
	fs.IntVar(&k9sMax, "k9s-max-pods", 100000, "skip k9s above this many pods (the report says so)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if b.namespace == "" || b.pods <= 0 || out == "" {
		return errors.New("--namespace, --pods and --out are required")
	}
	for _, name := range strings.Split(only, ",") {
		switch name {
		case "kscope":
			b.tools = append(b.tools, b.kscopeTool("kscope", abs(kscope)))
		case beforeTool:
			if before == "" {
				return errors.New("--tools names " + beforeTool + " without --kscope-before")
			}
			b.tools = append(b.tools, b.kscopeTool(beforeTool, abs(before)))
		case "k9s":
			switch {
			case k9s == "":
			case b.pods > k9sMax:
				b.skipped["k9s"] = fmt.Sprintf("not run above %d pods (--k9s-max-pods): at 50k pods one k9s run "+
					"takes minutes and GBs of memory", k9sMax)
				k9s = ""
			default:
				b.tools = append(b.tools, b.k9sTool(abs(k9s), abs(k9sConfig)))
			}
		case "kubectl":
			b.kubectl = true
		}
	}
	b.kubeconfig, b.patchload = abs(b.kubeconfig), abs(b.patchload)
	b.before = abs(before)
	return b.run(out, kscope, k9s)
}

// beforeTool names the runs of the earlier kscope binary (--kscope-before).
const beforeTool = "kscope-before"

func abs(p string) string {
	if p == "" {
		return ""
	}
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// scope returns the flags that start a tool in the namespace, or in all namespaces.
func (b *bench) scope(all bool) []string {
	if all {
		return []string{"-A"}
	}
	return []string{"-n", b.namespace}
}

// kscopeTool is kscope (name: kscope, or beforeTool for an earlier binary): shift-N sorts by NAME (the first press selects it, the second flips it); IP is a
// wide column, so `w` shows it and shift-A sorts by AGE, the column before IP, and `>` moves the sort to IP.
func (b *bench) kscopeTool(name, bin string) tool {
	return tool{
		name: name,
		command: func(all bool, extra ...string) string {
			args := append([]string{"exec", bin, "--kubeconfig", b.kubeconfig}, b.scope(all)...)
			return strings.Join(append(append(args, "pods"), extra...), " ")
		},
		sortKey: "N", sortPrimes: 1,
		otherSortKey: ">", otherSortPrimes: []string{"w", "A"},
	}
}

// k9sTool is k9s v0.50.16 on its pods view (-c pods; -A for all namespaces, cmd/root.go): shift-N sorts by
// NAME and shift-I by IP, ascending (internal/view/pod.go, SortColCmd in internal/ui/table.go).
func (b *bench) k9sTool(bin, config string) tool {
	return tool{
		name: "k9s",
		command: func(all bool, extra ...string) string {
			args := append([]string{"exec", bin, "--kubeconfig", b.kubeconfig}, b.scope(all)...)
			return strings.Join(append(append(args, "-c", "pods"), extra...), " ")
		},
		env:     []string{"K9S_CONFIG_DIR=" + config},
		sortKey: "N", sortPrimes: 0, liveFilter: true,
		otherSortKey: "I",
	}
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "%s screenbench: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	b.log.Flush()
}

// run measures every tool b.runs times, interleaved, and writes the results to out.
func (b *bench) run(out, kscopeBin, k9sBin string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", b.kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = 100, 100
	if b.client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	if err := b.checkPods(); err != nil {
		return err
	}
	if b.tmux, err = startTmux("kscope-bench"); err != nil {
		return err
	}
	defer b.tmux.close()
	res := &Results{Namespace: b.namespace, Pods: b.pods, Started: time.Now().UTC().Format(time.RFC3339),
		Machine: machine(), Versions: b.versions(kscopeBin, k9sBin), Runs: map[string][]Sample{},
		AllNamespaces: map[string][]Sample{}, Skipped: b.skipped, Figures: figureIDs(b.allNS, b.launchOnly)}
	for run := 1; run <= b.runs; run++ {
		b.round(res, run, false)
		if b.allNS {
			b.round(res, run, true)
		}
		if err := res.write(out); err != nil { // keep what we have
			return err
		}
	}
	if b.profileDir != "" && len(b.tools) > 0 && b.tools[0].name == "kscope" {
		res.Profiles = b.profileRun(b.tools[0])
	}
	res.Finished = time.Now().UTC().Format(time.RFC3339)
	res.Machine["loadavg_end"] = loadAvg()
	return res.write(out)
}

// round measures each tool once, interleaved: the full session in the namespace, or (all) the launch in all
// namespaces.
func (b *bench) round(res *Results, run int, all bool) {
	into, where := res.Runs, "the namespace"
	if all {
		into, where = res.AllNamespaces, "all namespaces"
	}
	for _, t := range b.tools {
		if !b.runsThisTime(t.name, run) {
			continue
		}
		b.waitQuiet()
		b.logf("%s run %d/%d on %d pods, %s (load %s)", t.name, run, b.runs, b.pods, where, loadAvg())
		var s Sample
		if all {
			s = b.measureAllNamespaces(t)
		} else {
			s = b.measureTUI(t, nil)
		}
		b.logf("%s run %d, %s: %+v", t.name, run, where, summary(s))
		into[t.name] = append(into[t.name], s)
		time.Sleep(5 * time.Second)
	}
	if b.kubectlRuns(run) {
		b.waitQuiet()
		s := b.measureKubectl(all)
		b.logf("kubectl run %d, %s: %s", run, where, summary(s))
		into["kubectl"] = append(into["kubectl"], s)
	}
}

// waitQuiet waits up to 3 minutes for the 1-minute load average to fall to maxLoad (the previous run's
// tool may have kept a core busy); a run that starts above it is marked invalid in the report.
func (b *bench) waitQuiet() {
	deadline := time.Now().Add(3 * time.Minute)
	for load1() > b.maxLoad && time.Now().Before(deadline) {
		time.Sleep(5 * time.Second)
	}
}

// kubectlRuns tells whether kubectl, which is not one of b.tools, is timed in round run (1-based): when asked
// for, and within its --runs-of.
func (b *bench) kubectlRuns(run int) bool { return b.kubectl && b.runsThisTime("kubectl", run) }

// runsThisTime tells whether tool runs in round run (1-based): always, unless --runs-of caps it at n runs,
// which then go to the middle rounds.
func (b *bench) runsThisTime(tool string, run int) bool {
	for _, kv := range strings.Split(b.runsOf, ",") {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || name != tool {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n >= b.runs {
			return true
		}
		first := (b.runs-n)/2 + 1
		return run >= first && run < first+n
	}
	return true
}

// profileRun runs kscope once more with profiling: a CPU profile of the whole session and heap snapshots
// after settling and after the churn phase.
func (b *bench) profileRun(t tool) []string {
	if err := os.MkdirAll(b.profileDir, 0o755); err != nil {
		b.logf("profile run: %s", err)
		return nil
	}
	base := filepath.Join(abs(b.profileDir), fmt.Sprintf("kscope-%d", b.pods))
	b.logf("kscope profile run → %s.{cpu,mem,mem.1,mem.2}", base)
	s := b.measureTUI(t, []string{"--cpuprofile", base + ".cpu", "--memprofile", base + ".mem"})
	b.logf("kscope profile run: %+v", summary(s))
	// the report names them as the working directory sees them (the repository's root under bench/screen.sh),
	// not by an absolute path of this machine
	named := base
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, base); err == nil {
			named = rel
		}
	}
	return []string{named + ".cpu", named + ".mem", named + ".mem.1", named + ".mem.2"}
}

// checkPods makes sure the namespace holds the expected number of pods.
func (b *bench) checkPods() error {
	n, err := countPods(context.Background(), b.client, b.namespace)
	if err != nil {
		return err
	}
	if n < b.pods*99/100 || n > b.pods {
		return fmt.Errorf("namespace %s has %d pods, want %d", b.namespace, n, b.pods)
	}
	if n != b.pods {
		b.logf("namespace %s has %d pods of %d (some were deleted); measuring what is there", b.namespace, n, b.pods)
		b.pods = n
	}
	return nil
}

// summary is a short form of s for the log.
func summary(s Sample) string {
	launch := fmt.Sprintf("first rows %.2fs", s.FirstS)
	if s.FirstListing {
		launch += " (listing)"
	}
	launch += fmt.Sprintf(" launch %.2fs", s.LaunchS)
	if s.ClusterPods > 0 {
		launch += fmt.Sprintf(" (%d pods in the cluster)", s.ClusterPods)
	}
	switch {
	case s.RSSMB == 0: // kubectl, or a TUI that did not get far
		return fmt.Sprintf("%s peak rss %.0f MB errors %v", launch, s.PeakRSSMB, s.Errors)
	case s.ChurnRate == 0 && s.FilterBurstMS == 0 && len(s.ChangeMS) == 0: // an all-namespaces launch
		return fmt.Sprintf("%s rss %.0f/%.0f MB errors %v", launch, s.RSSMB, s.PeakRSSMB, s.Errors)
	}
	return fmt.Sprintf("%s rss %.0f/%.0f MB idle %.1f%% churn %.1f%% (%.0f/s) filter %.0f ms (burst %.0f) sort %.0f ms (other column %.0f ms) change p50 %.0f p99 %.0f ms (%d, %d missed) errors %v",
		launch, s.RSSMB, s.PeakRSSMB, s.IdleCPU, s.ChurnCPU, s.ChurnRate, s.FilterMS, s.FilterBurstMS, s.SortMS, s.SortOtherMS,
		percentile(s.ChangeMS, 0.5), percentile(s.ChangeMS, 0.99), len(s.ChangeMS), s.ChangeMisses, s.Errors)
}
