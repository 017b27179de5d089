package ui

import "testing"

// TestLogsTakeConfiguredDefaults: the logs view starts with the options' tail, buffer and toggles (from
// config.yaml's logger section).
func TestLogsTakeConfiguredDefaults(t *testing.T) {
	off, on := false, true
	h := openPodLogs(t, func(o *Options) {
		o.LogLines, o.LogTail = 100, 42
		o.LogWrap, o.LogTimestamps, o.LogFollow = &off, &on, &off
	}, func(h *harness) { seedLog(h, "web-7d9f-abcde", "web", 300) }, "web-7d9f-abcde", 'l')
	h.eventually("follow off (s)  timestamps on (t)  wrap off (w)  42 of 100 lines kept")
	if req := h.cluster.logRequests()[0]; req.TailLines != 42 {
		t.Fatalf("first request %+v, want tail 42", req)
	}
}
