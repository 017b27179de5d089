//go:build e2e

package e2e

import (
	"strings"
	"testing"
	"time"
)

// attachDetach waits for kscope's line on the terminal it handed over saying it attached to what (NS/POD
// (CONTAINER)), appends a line to the container's log file (what kwok's attach streams from then on) until
// it shows, detaches with keys, and waits for the view back (back) with kscope's line saying it detached.
func attachDetach(t *testing.T, s *tmuxUI, container, what, back string, keys ...string) {
	t.Helper()
	s.waitFor("kscope: attached to the output of", "detach with ctrl-p ctrl-q or ctrl-c")
	s.waitGone(back) // the TUI gave the terminal to the attachment
	marker := "kscope-attach-" + randomSuffix()
	// kwok follows the file from the end it finds once the attachment is set up, a moment after kscope's
	// line: a line appended before that does not come through, so append it again every 2 s until it shows.
	var appended time.Time
	s.waitUntil("the line "+marker+" appended to the container's log", func(scr string) bool {
		if strings.Contains(scr, marker) {
			return true
		}
		if time.Since(appended) > 2*time.Second {
			devcluster(t, "log", container, marker)
			appended = time.Now()
		}
		return false
	})
	s.keys(keys...)
	s.waitFor(back, "detached from "+what+"; its process runs on")
}

// TestUIAttach: a on a running pod attaches to its container as kubectl attach does: the TUI hands the
// terminal over, what the container writes from then on shows there, ctrl-p ctrl-q (or ctrl-c, the container
// reading no input) detaches and the TUI is back as it was; a on the containers screen attaches to the
// selected container.
func TestUIAttach(t *testing.T) {
	serial(t, "appends to the log every container without a log of its own shows (devcluster log)")
	ns := testNamespace(t)
	pod := streamsPod(t, ns)
	what := ns + "/" + pod + " (streams-e2e)"
	s := startUI(t, "-n", ns, "pods")
	table := "pods(" + ns + ")[1]"
	before := s.waitFor(table, pod, "synced  1/1", "Running")
	s.typeText("a")
	attachDetach(t, s, "streams-e2e", what, table, "C-p", "C-q")
	if after := s.screen(); tableScreen(after) != tableScreen(before) {
		t.Errorf("the screen after the attachment is not the one before:\n--- before\n%s--- after\n%s", before, after)
	}
	s.typeText("a")
	attachDetach(t, s, "streams-e2e", what, table, "C-c")

	s.keys("Enter")
	s.waitFor("containers(" + pod + ")[1]")
	s.typeText("a")
	attachDetach(t, s, "streams-e2e", what, "containers("+pod+")[1]", "C-p", "C-q")
	s.typeText("q")
	s.waitFor("KSCOPE-EXIT=0")
}
