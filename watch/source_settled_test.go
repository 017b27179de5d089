package watch

import (
	"testing"
	"time"
)

// TestSourceSettled: Settled is closed once the first list is complete and, in a one-namespace view, once the
// metadata fill behind it has completed too; an all-namespaces view settles with its first list.
func TestSourceSettled(t *testing.T) {
	t.Run("one namespace waits for the fill", func(t *testing.T) {
		f := newFakeAPI(t)
		f.set("shop/a", "Running", map[string]string{"app": "x"}, false)
		gate := make(chan struct{})
		f.fillGate = gate
		s := f.source(t, "shop")
		s.Start(t.Context())
		waitFor(t, "the first list", func() bool { return s.State().Phase == Synced })
		select {
		case <-s.Settled():
			t.Fatal("settled before the metadata fill completed")
		default:
		}
		close(gate)
		waitSettled(t, s)
		if r, _ := s.Row("shop/a"); r.Labels["app"] != "x" {
			t.Fatalf("settled with row a unfilled: %+v", r)
		}
	})
	t.Run("all namespaces settle with the list", func(t *testing.T) {
		f := newFakeAPI(t)
		f.set("shop/a", "Running", nil, false)
		f.fillGate = make(chan struct{}) // never opened: an all-namespaces view has no fill to wait for
		s := f.source(t, "")
		s.Start(t.Context())
		waitSettled(t, s)
		if s.State().Phase != Synced {
			t.Fatalf("settled in phase %v", s.State().Phase)
		}
	})
}

func waitSettled(t *testing.T, s *Source) {
	t.Helper()
	select {
	case <-s.Settled():
	case <-time.After(5 * time.Second):
		t.Fatalf("not settled within 5 s (state %+v)", s.State())
	}
}
