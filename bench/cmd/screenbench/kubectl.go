package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// measureKubectl times `kubectl get pods` in the namespace (in all namespaces if all): launch → the first
// pod row printed and → exit, and its peak RSS from the kernel's rusage.
func (b *bench) measureKubectl(all bool) Sample {
	s := Sample{LoadAvg: loadAvg()}
	want := b.pods
	args := []string{"get", "pods", "-n", b.namespace, "--kubeconfig", b.kubeconfig}
	if all {
		n, err := countPods(context.Background(), b.client, "")
		if err != nil {
			s.Errors = append(s.Errors, fmt.Sprintf("count the cluster's pods: %s", err))
		}
		args = []string{"get", "pods", "-A", "--kubeconfig", b.kubeconfig}
		s.ClusterPods, want = n, n
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.limit(180*time.Second, 30*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, "kubectl", args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
		return s
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("kubectl: %s", err))
		return s
	}
	first, lines := readRows(stdout, start)
	err = cmd.Wait()
	s.LaunchS, s.FirstS = time.Since(start).Seconds(), first.Seconds()
	if err != nil {
		s.Errors = append(s.Errors, fmt.Sprintf("kubectl: %s", err))
		s.LaunchS = 0
		return s
	}
	s.PeakRSSMB = peakRSSMB(cmd.ProcessState)
	if lines < want*99/100 { // not the complete table: the run failed
		s.Errors = append(s.Errors, fmt.Sprintf("kubectl printed %d lines, want %d", lines, want+1))
		s.LaunchS = 0
	}
	return s
}

// readRows reads kubectl's output to its end, and returns the time from start to its first row (the line
// after the header; 0 if none came) and the number of lines.
func readRows(r io.Reader, start time.Time) (first time.Duration, lines int) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines++
		if lines == 2 {
			first = time.Since(start)
		}
	}
	return first, lines
}
