package plugins

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode"

	"kscope/config"
)

// maxPluginOutput is how much of a background plugin's output (stdout and stderr together) is kept: the
// last bytes, of which the last line is shown.
const maxPluginOutput = 64 << 10

// pluginQuitWait bounds how long quitting waits for the background plugins it stopped to be gone.
const pluginQuitWait = 3 * time.Second

// MaxBackground is how many background plugins run at once in a session: a plugin run on many marked rows
// starts this many, and each of the others when one ends (quitting drops those not started).
const MaxBackground = 8

// runs counts the background plugins started and still running (or waiting for their turn), so that
// quitting stops and waits for them, and holds their turns (slots: at most cap(slots) at once). Safe for
// concurrent use.
type runs struct {
	wg               sync.WaitGroup
	slots            chan struct{}
	mu               sync.Mutex
	started, running int
}

func (r *runs) begin() {
	r.wg.Add(1)
	r.mu.Lock()
	r.started++
	r.running++
	r.mu.Unlock()
}

func (r *runs) end() {
	r.mu.Lock()
	r.running--
	r.mu.Unlock()
	r.wg.Done()
}

// counts returns how many were started and how many still run.
func (r *runs) counts() (started, running int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.started, r.running
}

// wait waits for every run to end, at most d; false when some did not.
func (r *runs) wait(d time.Duration) bool {
	done := make(chan struct{})
	go func() { r.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// tailBuffer keeps the last max bytes written to it and counts them all. Safe for concurrent use.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	total int64
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total += int64(len(p))
	if len(p) >= b.max {
		b.buf = append(b.buf[:0], p[len(p)-b.max:]...)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*b.max { // trim now and then, not on every write
		b.buf = append(b.buf[:0], b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

// tail returns the bytes kept (the last max) and a note saying what was cut ("" when nothing was).
func (b *tailBuffer) tail() (string, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	kept := b.buf
	if len(kept) > b.max {
		kept = kept[len(kept)-b.max:]
	}
	note := ""
	if b.total > int64(len(kept)) {
		note = fmt.Sprintf(" (output cut: kept the last %d of %d bytes)", len(kept), b.total)
	}
	return string(kept), note
}

// command is exec.Command with the environment of h's children and vars.
func command(h Host, vars map[string]string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = h.ChildEnv(vars)
	return cmd
}

// runBackground runs p with args and the variables vars in its environment, off the UI goroutine, once
// one of the session's MaxBackground turns is free: under the app's context (quitting kills it and
// everything it started, and Wait waits for that), its output kept up to maxPluginOutput. How it ended is said on the prompt line. UI goroutine only.
func (s *Set) runBackground(p config.Plugin, vars map[string]string, args []string) {
	h := s.h
	ctx := h.Context()
	cmd := exec.CommandContext(ctx, p.Command, args...)
	cmd.Env = h.ChildEnv(vars)
	out := &tailBuffer{max: maxPluginOutput}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = time.Second // a child that keeps the output open does not hold the run
	ownProcessGroup(cmd)
	s.runs.begin()
	mark := h.RefusalMark()
	h.Go(func() {
		defer s.runs.end()
		select {
		case s.runs.slots <- struct{}{}: // its turn
		case <-ctx.Done():
			return // quitting before its turn: never started
		}
		defer func() { <-s.runs.slots }()
		err := cmd.Run()
		if ctx.Err() != nil {
			return // quitting: nobody to tell
		}
		text, note := out.tail()
		h.Update(func() { s.done(p, err, text, note, mark) })
	})
}

// Runs tells how many background plugins were started and how many still run. Any goroutine.
func (s *Set) Runs() (started, running int) { return s.runs.counts() }

// Wait is quitting for the background plugins: the app's context is cancelled by then (which kills
// them); it waits a bounded time (pluginQuitWait) for them to be gone. Any goroutine.
func (s *Set) Wait() {
	s.runs.wait(pluginQuitWait)
}

// done says how a plugin ended, with the last line of a background plugin's output (control characters
// dropped) and note (what was cut). A write read-only mode refused a child since mark comes first (the
// line may be cut at the screen's edge): the plugin's exit would otherwise replace it.
func (s *Set) done(p config.Plugin, err error, out, note string, mark int) {
	h := s.h
	h.FlushNotices()
	first := ""
	if r := h.RefusedSince(mark); r != "" {
		first = r + "; "
	}
	last := ""
	if lines := strings.Split(strings.TrimSpace(out), "\n"); lines[len(lines)-1] != "" {
		last = ": " + strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return -1
			}
			return r
		}, lines[len(lines)-1])
	}
	if err != nil {
		h.Errorf("%splugin %s: %s%s%s", first, p.Name, err, last, note)
		return
	}
	h.Message(first + "plugin " + p.Name + " done" + last + note)
}
