package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

const (
	session      = "app"
	settle       = 10 * time.Second
	cpuWindow    = 20 * time.Second
	patchRate    = 200
	keyPoll      = 5 * time.Millisecond
	launchPoll   = 10 * time.Millisecond
	quitLimit    = 20 * time.Second
	probeSpacing = 100 * time.Millisecond
)

// measureTUI runs one session of t in the namespace and measures every phase; a failed phase is recorded
// in Errors and the later phases still run when they can.
func (b *bench) measureTUI(t tool, extra []string) (s Sample) {
	s.LoadAvg = loadAvg()
	defer b.quit(t)
	pid := b.launch(t, false, extra, &s)
	if pid == 0 {
		return s
	}
	var err error
	if len(extra) > 0 {
		heapSnapshot(pid) // live heap after settling
	}
	if b.launchOnly {
		return s
	}
	if s.IdleCPU, err = cpuPercent(pid, func() error { time.Sleep(cpuWindow); return nil }); err != nil {
		b.failf(&s, t, "idle cpu: %s", err)
	}
	if s.ChurnCPU, s.ChurnRate, err = b.churnCPU(pid); err != nil {
		b.failf(&s, t, "churn cpu: %s", err)
	}
	if len(extra) > 0 {
		heapSnapshot(pid) // live heap after churn
	}
	if err := b.changeLatency(&s); err != nil {
		b.failf(&s, t, "change latency: %s", err)
	}
	if err := b.filter(t, &s); err != nil {
		b.failf(&s, t, "filter: %s", err)
	}
	if s.SortMS, err = b.sort(t); err != nil {
		b.failf(&s, t, "sort: %s", err)
	}
	if s.SortOtherMS, err = b.sortOther(t); err != nil {
		b.failf(&s, t, "sort by another column: %s", err)
	}
	return s
}

// limit returns how long to wait for something on screen: least, or perTenK for every 10k pods if longer.
func (b *bench) limit(least, perTenK time.Duration) time.Duration {
	return max(least, time.Duration(float64(perTenK)*float64(b.pods)/10000))
}

// keyLimit is how long a key's effect may take before it counts as failed.
func (b *bench) keyLimit() time.Duration { return b.limit(60*time.Second, 18*time.Second) }

// waitFor polls the screen every interval until cond holds, and returns the time from start to the
// capture that showed it. Long waits poll less often (at most 2% of the time waited so far), so that the
// polling does not take CPU from the tool being measured.
func (b *bench) waitFor(start time.Time, interval, limit time.Duration, cond func([]string) bool) (time.Duration, []string, error) {
	var last []string
	for time.Since(start) < limit {
		sc, err := b.tmux.capture(session)
		if err != nil {
			return 0, nil, err
		}
		if cond(sc) {
			return time.Since(start), sc, nil
		}
		last = sc
		time.Sleep(max(interval, time.Since(start)/50))
	}
	return 0, last, fmt.Errorf("not on screen after %s (title count %d)", limit, rowCount(last))
}

// cpuPercent returns the CPU used by pid while during runs, as a percentage of one core.
func cpuPercent(pid int, during func() error) (float64, error) {
	c0, err := cpuSeconds(pid)
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	derr := during()
	c1, err := cpuSeconds(pid)
	if err != nil {
		return 0, err
	}
	return 100 * (c1 - c0) / time.Since(t0).Seconds(), derr
}

// churnCPU returns the CPU pid uses (% of one core) while patchload patches the pods, from its first patch
// to its last, and the patch rate achieved.
func (b *bench) churnCPU(pid int) (pct, rate float64, err error) {
	var c0 float64
	var t0 time.Time
	rate, err = b.patchLoad(cpuWindow, "", func() {
		t0 = time.Now()
		c0, _ = cpuSeconds(pid)
	})
	if err != nil {
		return 0, 0, err
	}
	c1, err := cpuSeconds(pid)
	if err != nil {
		return 0, 0, err
	}
	return 100 * (c1 - c0) / time.Since(t0).Seconds(), rate, nil
}

// patchLoad runs patchload for d at patchRate, skipping the named pods; started (if not nil) runs once
// patching begins, and patchload's output is read again only after it returns. It returns the achieved
// rate.
func (b *bench) patchLoad(d time.Duration, skip string, started func()) (float64, error) {
	cmd := exec.Command(b.patchload, "--kubeconfig", b.kubeconfig, "--namespace", b.namespace,
		"--rate", strconv.Itoa(patchRate), "--for", d.String(), "--skip", skip)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return 0, err
	}
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(stderr)
	var errText []string
	for sc.Scan() {
		if strings.Contains(sc.Text(), "patchload: started") {
			if started != nil {
				started()
			}
			continue
		}
		errText = append(errText, sc.Text())
	}
	if err := cmd.Wait(); err != nil {
		return 0, fmt.Errorf("patchload: %s %s", err, strings.Join(errText, "; "))
	}
	for _, f := range strings.Fields(out.String()) {
		if v, ok := strings.CutPrefix(f, "rate="); ok {
			return strconv.ParseFloat(v, 64)
		}
	}
	return 0, fmt.Errorf("patchload: no rate in %q", out.String())
}

// changeLatency patches visible pods one at a time while patchload changes the others, and records how
// long each change takes to show on screen.
func (b *bench) changeLatency(s *Sample) error {
	sc, err := b.tmux.capture(session)
	if err != nil {
		return err
	}
	probes := visiblePods(sc)
	if len(probes) > 6 {
		probes = probes[2 : len(probes)-2] // not the edge rows
	}
	if len(probes) == 0 {
		return fmt.Errorf("no pods visible")
	}
	d, err := b.watchProbes(probes)
	if err != nil {
		return fmt.Errorf("watch the probes: %w", err)
	}
	defer d.stop()
	_, err = b.patchLoad(cpuWindow+5*time.Second, strings.Join(probes, ","), func() {
		b.probe(probes, cpuWindow, s, d)
	})
	return err
}

// probe patches the probes in turn for d, each with a new status.reason, and waits for it on screen; seen
// records when the server delivered each change to a bare watch.
func (b *bench) probe(probes []string, d time.Duration, s *Sample, seen *deliveries) {
	pods := b.client.CoreV1().Pods(b.namespace)
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		name := probes[i%len(probes)]
		b.probes++
		marker := fmt.Sprintf("P%06d", b.probes)
		body := fmt.Sprintf(`{"status":{"reason":%q}}`, marker)
		sent := time.Now()
		_, err := pods.Patch(context.Background(), name, types.MergePatchType, []byte(body), metav1.PatchOptions{}, "status")
		if err != nil {
			s.Errors = append(s.Errors, fmt.Sprintf("probe patch %s: %s", name, err))
			continue
		}
		answered := time.Now()
		_, _, err = b.waitFor(answered, keyPoll, b.limit(15*time.Second, 6*time.Second), func(sc []string) bool {
			return strings.Contains(lineOf(sc, name), marker)
		})
		if at, ok := seen.arrived(marker); ok {
			s.DeliveryMS = append(s.DeliveryMS, ms(at.Sub(answered)))
		} else {
			s.DeliveryMisses++
		}
		if err != nil {
			s.ChangeMisses++
		} else {
			shown := time.Now()
			s.ChangeMS = append(s.ChangeMS, ms(shown.Sub(answered)))
			s.ChangeSentMS = append(s.ChangeSentMS, ms(shown.Sub(sent)))
		}
		time.Sleep(probeSpacing + time.Duration(rand.Int64N(int64(probeSpacing))))
	}
}

// quit ends the session with ctrl-c and waits for it to go; it is killed after quitLimit.
func (b *bench) quit(t tool) {
	_ = b.tmux.keys(session, "C-c")
	deadline := time.Now().Add(quitLimit)
	for time.Now().Before(deadline) {
		if !b.tmux.alive(session) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.logf("%s did not quit on ctrl-c; killing the session", t.name)
	b.tmux.kill(session)
}
