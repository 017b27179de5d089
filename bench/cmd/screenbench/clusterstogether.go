package main

import (
	"strings"
	"time"
)

// togetherSession is kscope on each cluster alone, every one started at the same moment in a tmux session
// of its own: on one machine, the servers then serve the same lists at the same time as for the table over
// all of them, so the table's cost over theirs is kscope's own. First: the first rows of any; complete: when
// the last is complete (each as singleSession says); RSS settled and peak: their sums.
func (cb *clusterBench) togetherSession() (s Sample) {
	b := cb.b
	s.LoadAvg = loadAvg()
	t := tool{name: together}
	ns := cb.b.namespace
	names := make([]string, len(cb.contexts))
	for i, c := range cb.contexts {
		names[i] = session + "-" + c
		b.tmux.kill(names[i])
	}
	defer func() {
		for _, n := range names {
			_ = b.tmux.keys(n, "C-c")
		}
		time.Sleep(time.Second)
		for _, n := range names {
			b.tmux.kill(n)
		}
	}()
	start := time.Now()
	for i, c := range cb.contexts {
		command := strings.Join([]string{"exec", cb.kscope, "--kubeconfig", cb.b.kubeconfig, "--context", c, "-n", ns, "pods"}, " ")
		if err := b.tmux.launch(names[i], b.width, b.height, nil, command); err != nil {
			b.failf(&s, t, "launch %s: %s", c, err)
			return s
		}
	}
	done := make([]bool, len(names))
	limit := b.limit(180*time.Second, 60*time.Second)
	for left := len(names); left > 0; {
		if time.Since(start) > limit {
			b.failf(&s, t, "launch: not every one complete after %s", limit)
			return s
		}
		for i, n := range names {
			if done[i] {
				continue
			}
			sc, err := b.tmux.capture(n)
			if err != nil {
				continue
			}
			if s.FirstS == 0 && len(visiblePods(sc)) > 0 {
				s.FirstS = time.Since(start).Seconds()
			}
			if tt, ok := titleOf(sc); ok && tt.scope == ns && !tt.listing && tt.count == cb.b.pods && len(visiblePods(sc)) > 0 {
				done[i], left = true, left-1
			}
		}
		if left > 0 {
			time.Sleep(launchPoll)
		}
	}
	s.LaunchS = time.Since(start).Seconds()
	time.Sleep(settle)
	for _, n := range names {
		pid, err := b.tmux.pid(n)
		if err != nil {
			b.failf(&s, t, "pid: %s", err)
			return s
		}
		rss, peak, err := memoryMB(pid)
		if err != nil {
			b.failf(&s, t, "memory: %s", err)
			return s
		}
		s.RSSMB, s.PeakRSSMB = s.RSSMB+rss, s.PeakRSSMB+peak
	}
	return s
}
