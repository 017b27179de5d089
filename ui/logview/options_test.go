package logview

import (
	"testing"

	"kscope/ui"
)

// TestLogsTakeConfiguredDefaults: the logs view starts with the options' tail, buffer and toggles (from
// config.yaml's logger section).
func TestLogsTakeConfiguredDefaults(t *testing.T) {
	off, on := false, true
	lt := newLogsTest(t, ui.LogSettings{Lines: 100, Tail: 42, Wrap: &off, Timestamps: &on, Follow: &off})
	lt.seedLog("web-7d9f-abcde", "web", 300)
	v := lt.openPod("web-7d9f-abcde", false)
	lt.eventually(v, "follow off (s)  timestamps on (t)  wrap off (w)  42 of 100 lines kept")
	if req := lt.cluster.logRequests()[0]; req.TailLines != 42 {
		t.Fatalf("first request %+v, want tail 42", req)
	}
}
