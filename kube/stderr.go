package kube

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"

	"kscope/spawn"
)

// maxHeldLines bounds the lines a StderrCapture keeps while no one reads them.
const maxHeldLines = 100

// StderrCapture takes what the process writes to its standard error while the terminal UI owns the screen:
// an exec credential plugin's messages (client-go hands it kscope's own stderr), the server's warnings, a
// library's log line. Drawn over the screen they would garble it; captured, they become lines the UI can
// show on its status line. Lines no one has taken yet are held (the newest 100). Safe for concurrent use.
type StderrCapture struct {
	pipe *os.File // the read end
	done chan struct{}

	// fdMu guards what fd 2 refers to: orig (the standard error kscope started with), or write (the pipe's
	// write end, kept open so that pointing fd 2 away does not end the capture); restored once Restore ran.
	fdMu     sync.Mutex
	orig     *os.File
	write    *os.File
	paused   bool
	restored bool

	mu      sync.Mutex
	held    []string
	deliver func(string)
	dropped int
}

// CaptureStderr starts capturing the process's standard error (file descriptor 2, so child processes such
// as credential plugins are captured too), reading it on a goroutine start starts (nil: a plain one). Call
// Restore when the UI has given the screen back.
func CaptureStderr(start spawn.Func) (*StderrCapture, error) {
	orig, err := dupStderr()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		orig.Close()
		return nil, err
	}
	if err := pointStderr(w); err != nil {
		orig.Close()
		r.Close()
		w.Close()
		return nil, err
	}
	// A fatal error (an unrecovered panic on some goroutine) still reaches the terminal, after the screen.
	_ = debug.SetCrashOutput(orig, debug.CrashOptions{})
	c := &StderrCapture{pipe: r, done: make(chan struct{}), orig: orig, write: w}
	start.Go(func() { c.read(r) })
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

// Pause points file descriptor 2 back at the original standard error (the terminal) until Resume: a child
// that takes the terminal (a shell, an editor, a plugin) inherits it and its prompts on standard error are
// seen as it writes them. Nothing is lost from the capture meanwhile. Pausing a paused or restored capture
// does nothing.
func (c *StderrCapture) Pause() error {
	c.fdMu.Lock()
	defer c.fdMu.Unlock()
	if c.paused || c.restored {
		return nil
	}
	if err := pointStderr(c.orig); err != nil {
		return fmt.Errorf("give standard error back to the terminal: %w", err)
	}
	c.paused = true
	return nil
}

// Resume captures standard error again after Pause; resuming a capture that is not paused does nothing.
func (c *StderrCapture) Resume() error {
	c.fdMu.Lock()
	defer c.fdMu.Unlock()
	if !c.paused || c.restored {
		return nil
	}
	if err := pointStderr(c.write); err != nil {
		return fmt.Errorf("capture standard error again: %w", err)
	}
	c.paused = false
	return nil
}

// Restore puts the original standard error back and writes the lines not delivered to it. It returns once
// everything written before it has been read. Calling it again does nothing.
func (c *StderrCapture) Restore() {
	c.fdMu.Lock()
	if c.restored {
		c.fdMu.Unlock()
		return
	}
	c.restored = true
	_ = debug.SetCrashOutput(nil, debug.CrashOptions{})
	_ = pointStderr(c.orig)
	c.orig.Close()
	c.write.Close() // the last write end: the reader sees EOF
	c.fdMu.Unlock()
	<-c.done
	c.pipe.Close()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.held {
		os.Stderr.WriteString(l + "\n")
	}
	c.held = nil
}
