package kube

import (
	"bufio"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// maxHeldLines bounds the lines a StderrCapture keeps while no one reads them.
const maxHeldLines = 100

// StderrCapture takes what the process writes to its standard error while the terminal UI owns the screen:
// an exec credential plugin's messages (client-go hands it kscope's own stderr), the server's warnings, a
// library's log line. Drawn over the screen they would garble it; captured, they become lines the UI can
// show on its status line. Lines no one has taken yet are held (the newest 100). Safe for concurrent use.
type StderrCapture struct {
	restoreFd func() error // puts the original standard error back
	pipe      *os.File     // the read end
	done      chan struct{}

	mu      sync.Mutex
	held    []string
	deliver func(string)
	dropped int
}

// CaptureStderr starts capturing the process's standard error (file descriptor 2, so child processes such
// as credential plugins are captured too). Call Restore when the UI has given the screen back.
func CaptureStderr() (*StderrCapture, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	orig, restore, err := redirectStderr(w)
	w.Close() // fd 2 holds the write end now (or the redirection failed)
	if err != nil {
		r.Close()
		return nil, err
	}
	// A fatal error (an unrecovered panic on some goroutine) still reaches the terminal, after the screen.
	_ = debug.SetCrashOutput(orig, debug.CrashOptions{})
	c := &StderrCapture{restoreFd: restore, pipe: r, done: make(chan struct{})}
	go c.read(r)
	return c, nil
}

func (c *StderrCapture) read(r io.Reader) {
	defer close(c.done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		c.mu.Lock()
		deliver := c.deliver
		if deliver == nil {
			if len(c.held) == maxHeldLines {
				c.held, c.dropped = c.held[1:], c.dropped+1
			}
			c.held = append(c.held, line)
		}
		c.mu.Unlock()
		if deliver != nil {
			deliver(line)
		}
	}
}

// Deliver hands every captured line to fn from now on, on the capture's goroutine, starting with the lines
// held so far; nil holds them again. fn must not block for long (the writer waits meanwhile).
func (c *StderrCapture) Deliver(fn func(line string)) {
	c.mu.Lock()
	held := c.held
	c.held, c.deliver = nil, fn
	c.mu.Unlock()
	for _, l := range held {
		if fn != nil {
			fn(l)
		}
	}
}

// Restore puts the original standard error back and writes the lines not delivered to it. It returns once
// everything written before it has been read. Calling it again does nothing.
func (c *StderrCapture) Restore() {
	if c.restoreFd == nil {
		return
	}
	_ = debug.SetCrashOutput(nil, debug.CrashOptions{})
	_ = c.restoreFd() // closes fd 2's write end: the reader sees EOF
	c.restoreFd = nil
	<-c.done
	c.pipe.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.held {
		os.Stderr.WriteString(l + "\n")
	}
	c.held = nil
}
