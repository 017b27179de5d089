package discovery

import (
	"context"
	"testing"
	"time"
)

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"pods", "pods", 0}, {"podz", "pods", 1}, {"pod", "pods", 1},
		{"deploymnts", "deployments", 1}, {"svc", "", 3}, {"kitten", "sitting", 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRunWithoutWatchesRefreshesOnWake(t *testing.T) {
	// The fake getter has no REST config, like a user who may not watch CRDs: Run falls back to re-reading
	// discovery once at start and whenever something wakes it.
	c, g := loadedCatalog(t, testServer())
	calls := make(chan struct{}, 10)
	defer c.Subscribe(func() { calls <- struct{}{} })()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Run(ctx); close(done) }()

	s := testServer()
	s.groups[6].versions[0].resources = append(s.groups[6].versions[0].resources, res("gizmos", "gizmo", "Gizmo", true, rw))
	g.disc.set(s)
	expectCall(t, calls, "start-up re-read")
	if _, ok := c.lookup("shop.example.com", "gizmos"); !ok {
		t.Error("gizmos missing after the start-up re-read")
	}

	g.disc.set(testServer())
	c.wake()
	c.wake() // coalesced
	expectCall(t, calls, "re-read after wake")
	if _, ok := c.lookup("shop.example.com", "gizmos"); ok {
		t.Error("gizmos still listed")
	}
	expectNoCall(t, calls, "no further change")

	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}
