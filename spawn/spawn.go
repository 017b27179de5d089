// Package spawn is kscope's one way to start a goroutine. A panic on a goroutine no one recovers ends the
// process at once, with the terminal still in the UI's raw mode and alternate screen; a goroutine started
// through a Supervisor hands its panic to the supervisor instead, which tells the UI to stop (and restore the
// terminal) and keeps the panic for the exit. Packages below the UI take a Func as a parameter or option, so
// that the composition root decides, and no package holds mutable state for it.
package spawn

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Func starts fn on a goroutine of its own. The zero value (nil) is a plain go statement.
type Func func(fn func())

// Go starts fn with f, or on a plain goroutine when f is nil. Safe for any goroutine.
func (f Func) Go(fn func()) {
	if f == nil {
		go fn()
		return
	}
	f(fn)
}

// Panic is a panic recovered on a goroutine: its value and the goroutine's stack.
type Panic struct {
	Value any
	Stack []byte
}

// Error is one line; the stack is in Stack.
func (e *Panic) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// Supervisor starts goroutines whose panics it recovers: the first is kept (Err) and Failed is closed; the
// goroutine that panicked ends, the others go on until whoever watches Failed stops them. Safe for
// concurrent use.
type Supervisor struct {
	once   sync.Once
	failed chan struct{}
	mu     sync.Mutex
	err    *Panic
}

// NewSupervisor returns a supervisor no goroutine has failed under yet.
func NewSupervisor() *Supervisor { return &Supervisor{failed: make(chan struct{})} }

// Go starts fn on a goroutine of its own; a panic in fn is recovered and reported (Failed, Err).
func (s *Supervisor) Go(fn func()) {
	go func() {
		defer func() {
			if p := recover(); p != nil {
				s.Fail(&Panic{Value: p, Stack: debug.Stack()})
			}
		}()
		fn()
	}()
}

// Func is s.Go as a Func, for the packages that take one.
func (s *Supervisor) Func() Func { return s.Go }

// Fail reports p as if a goroutine of s had panicked with it (a panic recovered elsewhere, such as the UI's
// own goroutine); only the first is kept.
func (s *Supervisor) Fail(p *Panic) {
	s.mu.Lock()
	if s.err == nil {
		s.err = p
	}
	s.mu.Unlock()
	s.once.Do(func() { close(s.failed) })
}

// Failed is closed once a goroutine of s has panicked.
func (s *Supervisor) Failed() <-chan struct{} { return s.failed }

// Err is the first panic reported, nil while there is none.
func (s *Supervisor) Err() *Panic {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}
