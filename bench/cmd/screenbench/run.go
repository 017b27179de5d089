package main

import (
	"bufio"
	"context"
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

// tool is one program under test.
type tool struct {
	name string
	// command returns the shell command line that starts the TUI on the namespace's pods, with extra flags.
	command func(extra ...string) string
	env     []string
	// sortKey sorts by NAME; sortPrimes is how many presses come before the measured one (the first press
	// may only select the column).
	sortKey    string
	sortPrimes int
	// liveFilter: the tool filters while the user types (k9s), not on Enter (kscope).
	liveFilter bool
}

// bench is one `screenbench run`.
type bench struct {
	namespace  string
	pods       int
	kubeconfig string
	patchload  string
	runs       int
	width      int
	height     int
	profileDir string
	tools      []tool
	kubectl    bool
	runsOf     string
	maxLoad    float64

	tmux   *tmuxServer
	client kubernetes.Interface
	probes int // probe patches sent so far (unique markers)
	log    *bufio.Writer
}

func runCommand(args []string) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	b := &bench{log: bufio.NewWriter(os.Stderr)}
	var kscope, k9s, k9sConfig, out, only string
	fs.StringVar(&b.namespace, "namespace", "", "namespace holding the pods (required)")
	fs.IntVar(&b.pods, "pods", 0, "number of pods in the namespace (required; checked)")
	fs.StringVar(&b.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig")
	fs.StringVar(&b.patchload, "patchload", "bin/patchload", "patchload binary")
	fs.IntVar(&b.runs, "runs", 3, "runs per tool (figures are medians)")
	fs.IntVar(&b.width, "width", 160, "terminal columns")
	fs.IntVar(&b.height, "height", 50, "terminal lines")
	fs.StringVar(&b.profileDir, "profile-dir", "", "if set, one extra kscope run with --cpuprofile/--memprofile into this folder")
	fs.StringVar(&kscope, "kscope", "bin/kscope", "kscope binary")
	fs.StringVar(&k9s, "k9s", "", "k9s binary (empty: skip k9s)")
	fs.StringVar(&k9sConfig, "k9s-config", "", "K9S_CONFIG_DIR for k9s")
	fs.StringVar(&only, "tools", "kscope,k9s,kubectl", "tools to measure")
	fs.StringVar(&out, "out", "", "write the results as JSON to this file (required)")
	fs.StringVar(&b.runsOf, "runs-of", "", "fewer runs for some tools, e.g. k9s=1 (its runs take minutes at 50k pods)")
	fs.Float64Var(&b.maxLoad, "max-load", 1.5, "before each run, wait (up to 3 min) for the 1-minute load average to fall to this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if b.namespace == "" || b.pods <= 0 || out == "" {
		return errors.New("--namespace, --pods and --out are required")
	}
	for _, name := range strings.Split(only, ",") {
		switch name {
		case "kscope":
			b.tools = append(b.tools, b.kscopeTool(abs(kscope)))
		case "k9s":
			if k9s != "" {
				b.tools = append(b.tools, b.k9sTool(abs(k9s), abs(k9sConfig)))
			}
		case "kubectl":
			b.kubectl = true
		}
	}
	b.kubeconfig, b.patchload = abs(b.kubeconfig), abs(b.patchload)
	return b.run(out, kscope, k9s)
}

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

func (b *bench) kscopeTool(bin string) tool {
	return tool{
		name: "kscope",
		command: func(extra ...string) string {
			return strings.Join(append([]string{"exec", bin, "--kubeconfig", b.kubeconfig, "-n", b.namespace, "pods"}, extra...), " ")
		},
		sortKey: "N", sortPrimes: 1,
	}
}

func (b *bench) k9sTool(bin, config string) tool {
	return tool{
		name: "k9s",
		command: func(extra ...string) string {
			return strings.Join(append([]string{"exec", bin, "--kubeconfig", b.kubeconfig, "-n", b.namespace, "-c", "pods"}, extra...), " ")
		},
		env:     []string{"K9S_CONFIG_DIR=" + config},
		sortKey: "N", sortPrimes: 0, liveFilter: true,
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
		Machine: machine(), Versions: b.versions(kscopeBin, k9sBin), Runs: map[string][]Sample{}}
	for run := 1; run <= b.runs; run++ {
		for _, t := range b.tools {
			if !b.runsThisTime(t.name, run) {
				continue
			}
			b.waitQuiet()
			b.logf("%s run %d/%d on %d pods (load %s)", t.name, run, b.runs, b.pods, loadAvg())
			s := b.measureTUI(t, nil)
			b.logf("%s run %d: %+v", t.name, run, summary(s))
			res.Runs[t.name] = append(res.Runs[t.name], s)
			time.Sleep(5 * time.Second)
		}
		if b.kubectl {
			b.waitQuiet()
			s := b.measureKubectl()
			b.logf("kubectl run %d: %.2f s, %.0f MB %v", run, s.LaunchS, s.PeakRSSMB, s.Errors)
			res.Runs["kubectl"] = append(res.Runs["kubectl"], s)
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

// waitQuiet waits up to 3 minutes for the 1-minute load average to fall to maxLoad (the previous run's
// tool may have kept a core busy); a run that starts above it is marked invalid in the report.
func (b *bench) waitQuiet() {
	deadline := time.Now().Add(3 * time.Minute)
	for load1() > b.maxLoad && time.Now().Before(deadline) {
		time.Sleep(5 * time.Second)
	}
}

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
	return []string{base + ".cpu", base + ".mem", base + ".mem.1", base + ".mem.2"}
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

// measureKubectl times `kubectl get pods -n NS` and reads its peak RSS from the kernel's rusage.
func (b *bench) measureKubectl() Sample {
	s := Sample{LoadAvg: loadAvg()}
	f, err := os.CreateTemp("", "kubectl-get-*.txt")
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
		return s
	}
	defer os.Remove(f.Name())
	defer f.Close()
	cmd := exec.Command("kubectl", "get", "pods", "-n", b.namespace, "--kubeconfig", b.kubeconfig)
	cmd.Stdout = f
	start := time.Now()
	err = cmd.Run()
	s.LaunchS = time.Since(start).Seconds()
	if err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("kubectl: %s", err))
		return s
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.PeakRSSMB = float64(ru.Maxrss) / 1024
	}
	if lines := countLines(f.Name()); lines < b.pods*99/100 {
		s.Errors = append(s.Errors, fmt.Sprintf("kubectl printed %d lines, want %d", lines, b.pods+1))
	}
	return s
}

func countLines(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return -1
	}
	return strings.Count(string(b), "\n")
}

// summary is a short form of s for the log.
func summary(s Sample) string {
	if s.RSSMB == 0 && s.IdleCPU == 0 && s.FilterMS == 0 { // kubectl, or a TUI that did not get far
		return fmt.Sprintf("launch %.2fs peak rss %.0f MB errors %v", s.LaunchS, s.PeakRSSMB, s.Errors)
	}
	return fmt.Sprintf("launch %.2fs rss %.0f/%.0f MB idle %.1f%% churn %.1f%% (%.0f/s) filter %.0f ms (burst %.0f) sort %.0f ms change p50 %.0f p99 %.0f ms (%d, %d missed) errors %v",
		s.LaunchS, s.RSSMB, s.PeakRSSMB, s.IdleCPU, s.ChurnCPU, s.ChurnRate, s.FilterMS, s.FilterBurstMS, s.SortMS,
		percentile(s.ChangeMS, 0.5), percentile(s.ChangeMS, 0.99), len(s.ChangeMS), s.ChangeMisses, s.Errors)
}
