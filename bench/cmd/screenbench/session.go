package main

import (
	"strings"
	"time"
)

// session launches command in the bench's tmux session and times the first screen of rows (and whether that
// screen said a list was still arriving) and the complete table (check), then lets it settle, reads its
// memory (RSS and peak, VmHWM) and quits it. name names the tool in the log and in errors; launched (if
// not nil) is called once the launch is over, before the settling (the end of a count's sampling).
func (b *bench) session(name, command string, check func([]string) (complete, listing bool), launched func()) (s Sample) {
	t := tool{name: name}
	defer b.quit(t)
	s.LoadAvg = loadAvg()
	pid := b.open(t, command, check, &s)
	if launched != nil {
		launched()
	}
	if pid == 0 {
		return s
	}
	time.Sleep(settle)
	var err error
	if s.RSSMB, s.PeakRSSMB, err = memoryMB(pid); err != nil {
		b.failf(&s, t, "memory: %s", err)
	}
	return s
}

// open launches command (with t's environment) and waits for the complete table (check) with pod rows,
// recording in s the first screen of rows (and whether it said listing) and the complete time. It returns the
// tool's pid, or 0 when the launch failed (the failure is in s.Errors). The session stays open: the caller
// quits it.
func (b *bench) open(t tool, command string, check func([]string) (complete, listing bool), s *Sample) int {
	b.tmux.kill(session)
	start := time.Now()
	if err := b.tmux.launch(session, b.width, b.height, t.env, command); err != nil {
		b.failf(s, t, "launch: %s", err)
		return 0
	}
	pid, err := b.tmux.pid(session)
	if err != nil {
		b.failf(s, t, "pid: %s", err)
		return 0
	}
	w := &launchWatch{check: check}
	took, last, err := b.waitFor(start, launchPoll, b.limit(180*time.Second, 60*time.Second), func(sc []string) bool {
		return w.complete(sc, time.Since(start))
	})
	s.FirstS, s.FirstListing = w.first.Seconds(), w.listing
	if err != nil {
		b.failf(s, t, "launch: %s; last screen's status: %s", err, lastLine(last))
		return 0
	}
	s.LaunchS = took.Seconds()
	return pid
}

// lastLine is the screen's last line with text (the status line), for a failed launch's message.
func lastLine(sc []string) string {
	for i := len(sc) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(sc[i]); t != "" {
			return t
		}
	}
	return "(empty)"
}
