package drill

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/config"
	"kscope/discovery"
)

// jumpsFrom reads text as a jumps.yaml, as kscope reads its file.
func jumpsFrom(t *testing.T, text string) []config.Jump {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "jumps.yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	js, _, err := config.LoadJumps(config.Dirs{KScope: dir})
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// TestPodSelector: the selectors kscope drills down with, as kubectl prints them.
func TestPodSelector(t *testing.T) {
	svc := discovery.Resource{Version: "v1", Name: "services"}
	deploy := discovery.Resource{Group: "apps", Version: "v1", Name: "deployments"}
	obj := func(spec map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	}
	tests := []struct {
		name    string
		res     discovery.Resource
		spec    map[string]any
		want    string
		wantErr string
	}{
		{"service", svc, map[string]any{"selector": map[string]any{"app": "web", "tier": "front"}}, "app=web,tier=front", ""},
		{"service without selector", svc, map[string]any{}, "", "no selector: its endpoints are not chosen by labels"},
		{"match labels and expressions", deploy, map[string]any{"selector": map[string]any{
			"matchLabels":      map[string]any{"app": "web"},
			"matchExpressions": []any{map[string]any{"key": "tier", "operator": "In", "values": []any{"a", "b"}}}}},
			"app=web,tier in (a,b)", ""},
		{"no selector", deploy, map[string]any{}, "", "no pod selector"},
		{"empty selector", deploy, map[string]any{"selector": map[string]any{}}, "", "its selector picks every pod: open :pods instead"},
		{"bad operator", deploy, map[string]any{"selector": map[string]any{
			"matchExpressions": []any{map[string]any{"key": "tier", "operator": "Near"}}}}, "", `read its selector: "Near" is not a valid label selector operator`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := podSelector(tt.res, obj(tt.spec))
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			if got != tt.want || errText != tt.wantErr {
				t.Errorf("got %q, %q; want %q, %q", got, errText, tt.want, tt.wantErr)
			}
		})
	}
}

// TestJumpFor: the rule naming a resource's group, version and resource applies to it; else one naming its
// group and resource at another version; else none.
func TestJumpFor(t *testing.T) {
	jumps := jumpsFrom(t, `jumps:
  shop.example.com/v1beta1/widgets: {targetGVR: v1/configmaps, labelSelector: a=b}
  shop.example.com/v1/widgets: {targetGVR: v1/secrets, labelSelector: a=b}
  apps/v1beta2/deployments: {targetGVR: v1/pods, labelSelector: a=b}
`)
	tests := []struct {
		res  discovery.Resource
		want string // the rule's target, "" none
	}{
		{discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "widgets"}, "v1/secrets"},
		{discovery.Resource{Group: "shop.example.com", Version: "v1beta1", Name: "widgets"}, "v1/configmaps"},
		{discovery.Resource{Group: "apps", Version: "v1", Name: "deployments"}, "v1/pods"},
		{discovery.Resource{Group: "apps", Version: "v1", Name: "replicasets"}, ""},
		{discovery.Resource{Version: "v1", Name: "deployments"}, ""},
	}
	for _, tt := range tests {
		j, ok := JumpFor(jumps, tt.res)
		if got := config.GVRText(j.Target); ok != (tt.want != "") || ok && got != tt.want {
			t.Errorf("%s: rule to %q (%v), want %q", tt.res.GVR(), got, ok, tt.want)
		}
	}
}
