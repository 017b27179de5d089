//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
)

// soakFor is how long the soak runs; KSCOPE_SOAK (a Go duration) changes it.
func soakFor(t *testing.T) time.Duration {
	if v := os.Getenv("KSCOPE_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("KSCOPE_SOAK: %v", err)
		}
		return d
	}
	return 60 * time.Second
}

// TestReliabilitySoakMemoryLevelsOff: kscope (without the race detector) shows a table of 200 ConfigMaps
// changed 200 times a second for 60 s (KSCOPE_SOAK): patches, and every tenth change a create or a delete.
// At least a quarter of that rate must reach the server. Its resident memory, sampled every 5 s, levels off:
// the last third of the run stays within 25 % (+16 MB) of the middle third, and at the end it shows as many
// rows as the server holds.
func TestReliabilitySoakMemoryLevelsOff(t *testing.T) {
	serial(t, "measures kscope's memory over time")
	const objects, perSecond = 200, 200
	ns := testNamespace(t)
	cfg := withQPS(restConfig(t, "admin"))
	cs := kubernetes.NewForConfigOrDie(cfg)
	ctx := context.Background()
	ops := make(chan func() error, objects)
	for i := 0; i < objects; i++ {
		ops <- func() error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("soak-%03d", i)}, Data: map[string]string{"n": "0"}},
				metav1.CreateOptions{})
			return err
		}
	}
	runParallel(t, ops, 16)

	// The binary without the race detector: its memory is what a user's kscope holds.
	s := startTmuxBinary(t, env.plain, "; echo KSCOPE-EXIT=$?; sleep 600", "-n", ns, "configmaps")
	s.waitFor(fmt.Sprintf("configmaps(%s)[%d]", ns, objects+1), "synced")
	pid := panePID(t, s)

	duration := soakFor(t)
	var sent, failed atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / perSecond)
	defer tick.Stop()
	work := make(chan int, perSecond)
	for w := 0; w < 64; w++ { // enough in flight for 200/s at 300 ms a request
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range work {
				var err error
				switch {
				case n%10 == 5: // a create, so that growth with the number of objects seen would show
					_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
						ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("extra-%d", n)}}, metav1.CreateOptions{})
				case n%10 == 0 && n >= 200: // a delete of an extra created 200 operations ago (deleted rows)
					err = cs.CoreV1().ConfigMaps(ns).Delete(ctx, fmt.Sprintf("extra-%d", n-195), metav1.DeleteOptions{})
				default:
					patch := []byte(fmt.Sprintf(`{"data":{"n":"%d"}}`, n))
					_, err = cs.CoreV1().ConfigMaps(ns).Patch(ctx, fmt.Sprintf("soak-%03d", n%objects),
						types.MergePatchType, patch, metav1.PatchOptions{})
				}
				if err != nil {
					failed.Add(1)
					continue
				}
				sent.Add(1)
			}
		}()
	}
	go func() {
		defer close(work)
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-tick.C:
				select {
				case work <- n:
				default: // the server is behind: skip rather than queue
				}
			}
		}
	}()

	type sample struct {
		at  time.Duration
		rss int64
	}
	var samples []sample
	start := time.Now()
	for at := time.Duration(0); at <= duration; at += 5 * time.Second {
		time.Sleep(time.Until(start.Add(at)))
		samples = append(samples, sample{at, rssKB(t, pid)})
	}
	close(stop)
	wg.Wait()
	elapsed := time.Since(start)

	var series []string
	for _, smp := range samples {
		series = append(series, fmt.Sprintf("%ds:%.1fMB", int(smp.at.Seconds()), float64(smp.rss)/1024))
	}
	rate := float64(sent.Load()) / elapsed.Seconds()
	t.Logf("%d changes (patches, a create and a delete every 10) in %v (%.0f/s, %d failed); kscope RSS: %s",
		sent.Load(), elapsed.Round(time.Second), rate, failed.Load(), strings.Join(series, " "))
	// The soak means something only under load: a quarter of the aimed rate at least (a loaded 2-core CI
	// machine shares its cores with the API server and etcd).
	if rate < perSecond/4 {
		t.Errorf("only %.0f changes/s reached the server (aimed at %d): the soak did not load kscope", rate, perSecond)
	}
	third := len(samples) / 3
	peak := func(from, to int) int64 {
		var m int64
		for _, smp := range samples[from:to] {
			m = max(m, smp.rss)
		}
		return m
	}
	middle, last := peak(third, 2*third), peak(2*third, len(samples))
	if float64(last) > 1.25*float64(middle)+16*1024 {
		t.Errorf("memory does not level off: peak %.1f MB in the middle third, %.1f MB in the last",
			float64(middle)/1024, float64(last)/1024)
	}
	list, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scr := s.waitFor(fmt.Sprintf("configmaps(%s)[%d]", ns, len(list.Items)), "synced")
	if strings.Contains(scr, "KSCOPE-EXIT") {
		t.Fatalf("kscope ended during the soak:\n%s", scr)
	}
}

// panePID returns the pid of the process the tmux session runs under its shell (kscope).
func panePID(t *testing.T, s *tmuxUI) int {
	t.Helper()
	out, err := exec.Command("tmux", "list-panes", "-t", s.name, "-F", "#{pane_pid}").Output()
	if err != nil {
		t.Fatalf("tmux list-panes: %v", err)
	}
	shell := strings.TrimSpace(string(out))
	children, err := os.ReadFile("/proc/" + shell + "/task/" + shell + "/children")
	if err != nil {
		t.Fatalf("children of the pane's shell: %v", err)
	}
	for _, c := range strings.Fields(string(children)) {
		if exe, err := os.Readlink("/proc/" + c + "/exe"); err == nil && (filepath.Base(exe) == filepath.Base(env.kscope) || filepath.Base(exe) == filepath.Base(env.plain)) {
			pid, _ := strconv.Atoi(c)
			return pid
		}
	}
	t.Fatalf("no kscope process under the pane's shell %s (children %q)", shell, children)
	return 0
}

// rssKB returns a process's resident set size in KiB.
func rssKB(t *testing.T, pid int) int64 { return procStatusKB(t, pid, "VmRSS") }

// peakRSSKB returns a process's peak resident set size (VmHWM) in KiB.
func peakRSSKB(t *testing.T, pid int) int64 { return procStatusKB(t, pid, "VmHWM") }

// procStatusKB returns field (VmRSS, VmHWM …) of a process's /proc status, in KiB.
func procStatusKB(t *testing.T, pid int, field string) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatalf("kscope (pid %d) is gone: %v", pid, err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == field+":" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb
		}
	}
	t.Fatalf("no %s in /proc status", field)
	return 0
}
