//go:build e2e

package e2e

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

// TestUIContextsView: `:ctx` alone lists the devcluster kubeconfig's contexts (admin, tester, viewer), the
// current one marked and selected, with the read-only that a context's config.yaml asks (the tester's);
// enter on viewer switches to it as `:ctx viewer` does, and `:ctx` again marks viewer.
func TestUIContextsView(t *testing.T) {
	parallel(t)
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cluster := strings.NewReplacer(":", "-", "/", "-").Replace(cfg.Contexts["tester"].Cluster)
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "kscope", "clusters", cluster, "tester", "config.yaml"), "k9s:\n  readOnly: true\n")
	environ := []string{"K9S_CONFIG_DIR=" + filepath.Join(home, "k9s"), "KSCOPE_CONFIG_DIR=" + filepath.Join(home, "kscope")}
	s := startTmuxEnv(t, environ, env.kscope, "; echo KSCOPE-EXIT=$?; sleep 600", "--context", "admin", "-n", "default", "namespaces")
	s.waitFor("Context: admin", "namespaces[", "synced")
	s.typeText(":ctx")
	s.keys("Enter")
	// The kubeconfig's contexts, sorted as the screen lists them: admin, second (the devcluster's second
	// cluster; third and fourth when up), tester, viewer.
	names := slices.Sorted(maps.Keys(cfg.Contexts))
	n := strconv.Itoa(len(names))
	scr := s.waitFor("contexts["+n+"]", "admin(*)", "tester", "viewer", n+" contexts  current: admin")
	if !rowHas(scr, "tester", "yes") || rowHas(scr, "admin(*)", "yes") || rowHas(scr, "viewer", "yes") {
		t.Errorf("READ-ONLY: want yes for tester only:\n%s", scr)
	}
	for range slices.Index(names, "viewer") - slices.Index(names, "admin") { // admin is selected
		s.keys("Down")
	}
	s.keys("Enter")
	s.waitFor("Context: viewer", "switched to context viewer")
	s.typeText(":ctx")
	s.keys("Enter")
	s.waitFor("viewer(*)", n+" contexts  current: viewer")
}

// rowHas tells whether a line of scr holds first and, after it, word (a word of its own).
func rowHas(scr, first, word string) bool {
	for _, l := range strings.Split(scr, "\n") {
		if i := strings.Index(l, first); i >= 0 && strings.Contains(l[i:]+" ", " "+word+" ") {
			return true
		}
	}
	return false
}
