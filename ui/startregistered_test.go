package ui

import "testing"

// TestStartsOnARegisteredScreensCommand: `kscope feed web` opens the registered screen as `:feed web` does,
// rather than failing to resolve "feed" as a resource.
func TestStartsOnARegisteredScreensCommand(t *testing.T) {
	var s Session
	var words []string
	h := start(t, 140, 30, func(o *Options) {
		o.Resource = "feed web"
		o.Registered = []ScreenSpec{feedSpec(&s, &words)}
	})
	waitFor(t, h, `feed stub ["web"] in`)
	if RegisteredCommand(h.app.opts.Registered, "deployments") || !RegisteredCommand(h.app.opts.Registered, "fd") {
		t.Errorf("RegisteredCommand: deployments is a resource, fd the feed's alias")
	}
}
