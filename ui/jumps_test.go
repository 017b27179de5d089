package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/config"
	"kscope/ui/livetable"
	"kscope/watch"
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

// topSpec is the spec of the top table's source ("" GVR when the top view is not a table).
func (h *harness) topSpec() watch.Spec {
	var spec watch.Spec
	h.quietly(func() {
		if t, ok := h.app.top().(*livetable.Table); ok {
			spec = t.Source().Spec()
		}
	})
	return spec
}

// TestJumpOverridesDrillDown: a jumps.yaml rule for deployments replaces Enter's built-in drill-down to the
// pods: Enter opens the replicasets its label selector picks (the template over the deployment's name),
// live, titled after the deployment, in its namespace (kept); esc comes back to the deployments with the
// same row selected.
func TestJumpOverridesDrillDown(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "deployments"
		o.Jumps = jumpsFrom(t, "jumps:\n  apps/v1/deployments:\n    targetGVR: apps/v1/replicasets\n    labelSelector: app={{ .metadata.name }}\n")
		c := o.Cluster.(*fakeCluster)
		web := c.objects["deployments/shop/web"]
		_ = unstructured.SetNestedStringMap(web.Object, map[string]string{"app": "web"}, "spec", "selector", "matchLabels")
		c.rows["replicasets"] = append(c.rows["replicasets"], &watch.Row{Key: "shop/api-5c4b", Namespace: "shop",
			Name: "api-5c4b", Labels: map[string]string{"app": "api"}, Cells: []string{"api-5c4b", "1", "1", "1", "<age>"}})
	})
	waitFor(t, h, "web")
	h.press(tcell.KeyEnter, 0)
	h.eventually("replicasets(deployment web)[1]")
	h.contains("web-7d9f")
	h.lacks("api-5c4b")
	h.lacks("pods(deployment web)")
	if spec := h.topSpec(); spec.LabelSelector != "app=web" || spec.FieldSelector != "" || spec.Namespace != "shop" ||
		spec.GVR.Resource != "replicasets" {
		t.Errorf("the replicasets' spec %+v, want app=web in shop", spec)
	}
	h.command("ns data") // the table keeps its namespace, as the built-in drill-downs' do
	if spec := h.topSpec(); spec.Namespace != "shop" {
		t.Errorf("after :ns data the jump's table is in %q, want shop", spec.Namespace)
	}
	h.press(tcell.KeyEscape, 0)
	h.eventually("deployments(shop)[1]")
	h.lacks("replicasets(deployment web)")
	h.press(tcell.KeyRune, 'y')
	h.eventually("kind: Deployment")
}

// widgetsFixture gives the fake cluster widget w1 (spec.owner "a,b", no spec.team) and three configmaps,
// two labelled widget=w1 (one in namespace data), one widget=w2.
func widgetsFixture(c *fakeCluster) {
	name := watch.Column{Name: "NAME", Type: "string", Format: "name"}
	c.columns["widgets"], c.columns["configmaps"] = []watch.Column{name}, []watch.Column{name}
	c.rows["widgets"] = []*watch.Row{{Key: "shop/w1", Namespace: "shop", Name: "w1", Cells: []string{"w1"}}}
	cm := func(ns, name, widget string) *watch.Row {
		return &watch.Row{Key: ns + "/" + name, Namespace: ns, Name: name, Labels: map[string]string{"widget": widget},
			Cells: []string{name}}
	}
	c.rows["configmaps"] = []*watch.Row{cm("shop", "w1-config", "w1"), cm("shop", "w2-config", "w2"), cm("data", "w1-data", "w1")}
	c.objects["widgets/shop/w1"] = &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "shop.example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1", "namespace": "shop"},
		"spec":     map[string]any{"owner": "a,b", "size": "x l"},
	}}
}

// TestJumpFromCustomResource: a rule from a custom resource to the configmaps labelled with its name opens
// exactly those, in every namespace (targetNamespace: all: the title says so, and a namespace switch would
// narrow it, selectors kept), the field selector's value escaped; esc comes back to the widgets.
func TestJumpFromCustomResource(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "widgets"
		o.Jumps = jumpsFrom(t, `jumps:
  shop.example.com/v1/widgets:
    targetGVR: v1/configmaps
    labelSelector: "widget={{.metadata.name}}"
    fieldSelector: "metadata.annotations.owner={{.spec.owner}}"
    targetNamespace: all
`)
		widgetsFixture(o.Cluster.(*fakeCluster))
	})
	waitFor(t, h, "w1")
	h.press(tcell.KeyEnter, 0)
	h.eventually("configmaps(widget w1)(all)[2]")
	h.contains("w1-config")
	h.contains("w1-data")
	h.lacks("w2-config")
	if spec := h.topSpec(); spec.LabelSelector != "widget=w1" || spec.FieldSelector != `metadata.annotations.owner=a\,b` || spec.Namespace != "" {
		t.Errorf("the configmaps' spec %+v", spec)
	}
	h.press(tcell.KeyEscape, 0)
	h.eventually("widgets(shop)[1]")
	h.lacks("configmaps(widget w1)")
}

// TestJumpRefused: a field the object lacks, a value that is not a label value, or a target the server does
// not serve is one line naming the rule, and nothing opens.
func TestJumpRefused(t *testing.T) {
	tests := []struct{ name, rule, want string }{
		{"missing field", "targetGVR: v1/configmaps\n    labelSelector: team={{.spec.team}}",
			"jump shop.example.com/v1/widgets: .spec.team not set on widget w1"},
		{"not a label value", "targetGVR: v1/configmaps\n    labelSelector: size={{.spec.size}}",
			`jump shop.example.com/v1/widgets: .spec.size of widget w1 is "x l": not a label value`},
		{"target not served", "targetGVR: v1/gizmos\n    labelSelector: widget={{.metadata.name}}",
			"jump shop.example.com/v1/widgets: the server does not serve v1/gizmos"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, 160, 20, func(o *Options) {
				o.Resource = "widgets"
				o.Jumps = jumpsFrom(t, "jumps:\n  shop.example.com/v1/widgets:\n    "+tt.rule+"\n")
				widgetsFixture(o.Cluster.(*fakeCluster))
			})
			waitFor(t, h, "w1")
			h.press(tcell.KeyEnter, 0)
			h.eventually(tt.want)
			h.lacks("(widget w1)")
			h.contains("widgets(shop)[1]")
		})
	}
}
