package objectview

import (
	"testing"
	"time"

	"kscope/discovery"
	"kscope/ui"
	"kscope/watch"
)

// TestCloseStopsTheWatches: once its Close ran, a view of one object watches nothing (its watch, its health
// panel's), its goroutines have ended, and showing it again starts nothing.
func TestCloseStopsTheWatches(t *testing.T) {
	for _, tc := range []struct {
		name    string
		newView func(ui.Navigator, discovery.Resource, *watch.Row, ui.ObjectView) ui.Screen
		shown   string
	}{
		{name: "yaml", newView: NewYAMLView, shown: "resourceVersion"},
		{name: "describe", newView: NewDescribeView, shown: "ResourceVersion: 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vt := newViewTest(t, 120, 30)
			v := vt.open(tc.newView, deploymentsRes, "web")
			vt.eventually(v, tc.shown)
			key := objectKey(deploymentsGVR, "shop", "web")
			if n := vt.watchers(key); n == 0 {
				t.Fatal("the view watches nothing")
			}
			vt.nav.UI(v.Close)
			vt.until("the watches ended", func() bool { return vt.watchers(key) == 0 })
			ended := make(chan struct{})
			go func() { vt.nav.Wait(); close(ended) }()
			select {
			case <-ended:
			case <-time.After(wait):
				t.Fatal("the view's goroutines still ran after Close")
			}
			vt.nav.UI(v.Activate)
			if n := vt.watchers(key); n != 0 {
				t.Errorf("%d watches after the closed view was shown again, want none", n)
			}
		})
	}
}

// watchers is how many watches of the object with key are open.
func (vt *viewTest) watchers(key string) int {
	vt.cluster.mu.Lock()
	defer vt.cluster.mu.Unlock()
	return len(vt.cluster.watchers[key])
}
