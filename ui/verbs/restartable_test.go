package verbs

import (
	"testing"

	"kscope/discovery"
)

// TestRestartable: the workloads kubectl rollout restarts (apps' deployments, statefulsets and daemonsets)
// and no other, a custom resource of the same name included; the restart verb refuses the others in one
// line naming the resource.
func TestRestartable(t *testing.T) {
	for _, tt := range []struct {
		res  discovery.Resource
		want bool
	}{
		{discovery.Resource{Group: "apps", Version: "v1", Name: "deployments"}, true},
		{discovery.Resource{Group: "apps", Version: "v1", Name: "statefulsets"}, true},
		{discovery.Resource{Group: "apps", Version: "v1", Name: "daemonsets"}, true},
		{discovery.Resource{Group: "apps", Version: "v1", Name: "replicasets"}, false},
		{discovery.Resource{Version: "v1", Name: "pods"}, false},
		{discovery.Resource{Group: "batch", Version: "v1", Name: "cronjobs"}, false},
		{discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "deployments"}, false},
	} {
		if got := Restartable(tt.res); got != tt.want {
			t.Errorf("Restartable(%s) = %v, want %v", tt.res.FullName(), got, tt.want)
		}
		if err := restartable(tt.res); (err == nil) != tt.want {
			t.Errorf("restartable(%s) = %v, want refused: %v", tt.res.FullName(), err, !tt.want)
		}
	}
}
