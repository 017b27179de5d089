package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/cluster"
	"kscope/config"
)

// ownChildKubeconfig is a member cluster whose children get a kubeconfig of their own (as a member's
// read-only proxy gives them).
type ownChildKubeconfig struct {
	*fakeCluster
	path string
}

func (c ownChildKubeconfig) ChildKubeconfig() string { return c.path }

// TestPluginOnAnotherClustersRowActsOnThatCluster: in `:pods @admin,@viewer` a plugin on the viewer
// cluster's row runs as the viewer context configures it, with the viewer's CONTEXT, CLUSTER, USER and
// KUBECONFIG (in its arguments and its environment), and its question names the context; marked rows of
// both clusters run each with its own cluster's; a context without the plugin refuses the run.
func TestPluginOnAnotherClustersRowActsOnThatCluster(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	record := func(tag string) []string {
		return []string{"-c", `printf '%s|%s|%s|%s|%s|%s|%s\n' "$0" "$1" "$CONTEXT" "$CLUSTER" "$USER" "$KUBECONFIG" "$NAME" >> ` + out, tag, "$CONTEXT"}
	}
	global := []config.Plugin{
		{Name: "who", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true, Args: record("global")},
		{Name: "wipe", ShortCut: "Shift-W", Scopes: []string{"po"}, Command: "sh", Background: true, Confirm: true, Args: record("wipe")},
		{Name: "only-here", ShortCut: "Shift-O", Scopes: []string{"po"}, Command: "true"},
	}
	other := fixtureCluster()
	other.info.Context, other.info.Cluster, other.info.User = "viewer", "staging", "viewer-user"
	member := ownChildKubeconfig{fakeCluster: other, path: "/member/viewer/kubeconfig"}
	h := start(t, 160, 30, func(o *Options) {
		o.Resource = "pods"
		o.Kubeconfig = "/session/kubeconfig"
		o.Plugins = global
		o.ContextPlugins = func(_, context string) ([]config.Plugin, error) {
			if context != "viewer" {
				return nil, nil
			}
			return []config.Plugin{ // the viewer context's file: its own who, and no only-here
				{Name: "who", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true, Args: record("viewer-file")},
				{Name: "only-here", ShortCut: "Shift-O", Scopes: []string{"deployments"}, Command: "true"},
			}, nil
		}
		o.Connect = func(_ context.Context, name string) (cluster.Interface, error) {
			if name == "viewer" {
				return member, nil
			}
			return nil, errors.New("no such context")
		}
	})
	h.eventually("pods(shop)")
	h.command("pods @admin,@viewer")
	h.eventually("admin synced · viewer synced")
	// The selection follows the row it was on while the clusters' rows arrive, so which one that is depends on
	// their timing: start from the top.
	h.press(tcell.KeyRune, 'g')
	lines := func(n int) []string {
		t.Helper()
		var got []string
		h.until("the plugin's lines", func() bool {
			data, _ := os.ReadFile(out)
			got = strings.Split(strings.TrimSpace(string(data)), "\n")
			return len(data) > 0 && len(got) >= n
		})
		return got
	}

	h.press(tcell.KeyDown, 0) // the viewer cluster's row of the first pod (ties sort by cluster)
	h.press(tcell.KeyRune, 'K')
	h.eventually("plugin who done")
	want := "viewer-file|viewer|viewer|staging|viewer-user|/member/viewer/kubeconfig|"
	if got := lines(1); len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Fatalf("on the viewer's row the plugin ran as %q, want %q…", got, want)
	}
	h.press(tcell.KeyUp, 0) // the admin cluster's row
	h.press(tcell.KeyRune, 'K')
	want = "global|admin|admin|devcluster|admin|/session/kubeconfig|"
	if got := lines(2); !strings.HasPrefix(got[1], want) {
		t.Fatalf("on the admin's row the plugin ran as %q, want %q…", got[1], want)
	}

	h.press(tcell.KeyDown, 0)
	h.press(tcell.KeyRune, 'W')
	h.waitDialog("context viewer: Run plugin wipe on pods ")
	h.press(tcell.KeyEnter, 0) // Cancel
	h.until("the dialog closed", func() bool { return h.app.modal == nil })

	h.press(tcell.KeyRune, 'O')
	h.eventually("plugin only-here not run: context viewer has no plugin only-here")

	// Marked rows of both clusters: each runs with its own cluster's variables, one question naming both.
	h.press(tcell.KeyRune, ' ') // marks the viewer row, moves down
	h.press(tcell.KeyUp, 0)
	h.press(tcell.KeyUp, 0)
	h.press(tcell.KeyRune, ' ') // marks the admin row
	h.press(tcell.KeyRune, 'W')
	h.waitDialog("Run plugin wipe on 2 rows?")
	h.contains("@viewer")
	h.contains("@admin")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	got := lines(4)[2:]
	wantPrefixes := map[string]bool{
		"wipe|admin|admin|devcluster|admin|/session/kubeconfig|":            true,
		"wipe|viewer|viewer|staging|viewer-user|/member/viewer/kubeconfig|": true,
	}
	for _, g := range got {
		for p := range wantPrefixes {
			if strings.HasPrefix(g, p) {
				delete(wantPrefixes, p)
			}
		}
	}
	if len(wantPrefixes) != 0 {
		t.Fatalf("marked rows ran as %q; missing %v", got, wantPrefixes)
	}
}
