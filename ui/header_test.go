package ui

import (
	"strings"
	"testing"

	"kscope/cluster"
)

// TestHeaderShowsImpersonation: the header's first line names the user and groups the connection
// impersonates (--as, --as-group) next to the kubeconfig user; cluster text is shown as text, not tags.
func TestHeaderShowsImpersonation(t *testing.T) {
	base := cluster.Info{Context: "prod", Cluster: "c1", User: "admin", ServerVersion: "v1.37.2"}
	tests := []struct {
		name   string
		as     string
		groups []string
		want   string
	}{
		{"none", "", nil, "Context: prod  Cluster: c1  User: admin  K8s: v1.37.2  kscope: v1"},
		{"user", "alice", nil, "Context: prod  Cluster: c1  User: admin as alice  K8s: v1.37.2  kscope: v1"},
		{"user and groups", "alice", []string{"devs", "ops"},
			"Context: prod  Cluster: c1  User: admin as alice (groups devs, ops)  K8s: v1.37.2  kscope: v1"},
		{"tags are text", "[red]eve", []string{"[x]"},
			"Context: prod  Cluster: c1  User: admin as [red]eve (groups [x])  K8s: v1.37.2  kscope: v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := base
			info.As, info.AsGroups = tt.as, tt.groups
			h := NewHeader()
			h.Set(info, "shop", nil, "v1", false, nil)
			line1, _, _ := strings.Cut(h.view.GetText(true), "\n")
			if line1 != tt.want {
				t.Errorf("header\n%q\nwant\n%q", line1, tt.want)
			}
		})
	}
}
