package spawn

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestSupervisorRecoversAndReports: a panic on a goroutine started through a Supervisor does not end the
// process; Failed is closed, Err holds the first panic with its stack, and other goroutines go on.
func TestSupervisorRecoversAndReports(t *testing.T) {
	s := NewSupervisor()
	if s.Err() != nil {
		t.Fatal("a new supervisor has failed")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	s.Go(func() { defer wg.Done() })
	wg.Wait()
	select {
	case <-s.Failed():
		t.Fatal("failed without a panic")
	default:
	}
	s.Func().Go(func() { panic("the first") })
	select {
	case <-s.Failed():
	case <-time.After(5 * time.Second):
		t.Fatal("the panic was not reported")
	}
	s.Fail(&Panic{Value: "the second"})
	p := s.Err()
	if p == nil || p.Value != "the first" || !strings.Contains(string(p.Stack), "spawn_test.go") {
		t.Fatalf("Err = %+v, want the first panic with its stack", p)
	}
	if p.Error() != "internal error: the first" {
		t.Errorf("Error() = %q", p.Error())
	}
}

// TestNilFuncIsAPlainGoroutine: the zero Func starts fn.
func TestNilFuncIsAPlainGoroutine(t *testing.T) {
	done := make(chan struct{})
	var f Func
	f.Go(func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("fn did not run")
	}
}
