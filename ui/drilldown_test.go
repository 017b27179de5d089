package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"kscope/discovery"
	"kscope/tree"
	"kscope/tree/treetest"
	"kscope/ui/livetable"
	"kscope/watch"
)

// TestEnterDrillsDownToPods: Enter on a deployment opens the pods its selector picks, live, titled after it
// (YAML stays on y); esc comes back to the deployments with the same row selected. A deployment without a
// selector says so in one line and opens nothing.
func TestEnterDrillsDownToPods(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "deployments"
		c := o.Cluster.(*fakeCluster)
		web := c.objects["deployments/shop/web"]
		_ = unstructured.SetNestedStringMap(web.Object, map[string]string{"app": "web"}, "spec", "selector", "matchLabels")
	})
	waitFor(t, h, "web")
	h.press(tcell.KeyEnter, 0)
	h.eventually("pods(deployment web)")
	h.eventually("web-7d9f-abcde")
	h.lacks("api-5c4b")
	var spec string
	h.quietly(func() {
		if t, ok := h.app.top().(*livetable.Table); ok {
			spec = t.Source().Spec().LabelSelector
		}
	})
	if spec != "app=web" {
		t.Errorf("the pods' selector %q, want app=web", spec)
	}
	h.press(tcell.KeyEscape, 0)
	h.eventually("deployments(shop)")
	h.lacks("pods(deployment web)")
	h.press(tcell.KeyRune, 'y')
	h.eventually("kind: Deployment")

	bare := start(t, 120, 20, func(o *Options) { o.Resource = "deployments" })
	waitFor(t, bare, "web")
	bare.press(tcell.KeyEnter, 0)
	bare.eventually("deployment web: no pod selector")
	bare.lacks("pods(deployment")
}

// TestEnterDrillsDownToJobs: Enter on a cronjob opens the jobs its UID owns by their ownerReferences, live
// (not those of another cronjob, nor a job of the same name prefix); esc comes back to the cronjobs.
func TestEnterDrillsDownToJobs(t *testing.T) {
	owners := treetest.New(job("nightly-1", "uid-nightly"), job("nightly-manual"), job("weekly-1", "uid-weekly"))
	h := start(t, 120, 20, func(o *Options) {
		o.Resource = "cronjobs"
		c := o.Cluster.(*fakeCluster)
		verbs := []string{"delete", "get", "list", "watch"}
		c.catalog = discovery.NewStaticCatalog(append(c.catalog.Resources(),
			discovery.Resource{Group: "batch", Version: "v1", Name: "cronjobs", SingularName: "cronjob", Kind: "CronJob",
				ShortNames: []string{"cj"}, Verbs: verbs, Namespaced: true},
			discovery.Resource{Group: "batch", Version: "v1", Name: "jobs", SingularName: "job", Kind: "Job",
				Verbs: verbs, Namespaced: true})...)
		row := func(name string) *watch.Row {
			return &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, UID: types.UID("uid-" + name), Cells: []string{name}}
		}
		c.rows["cronjobs"] = []*watch.Row{row("nightly"), row("weekly")}
		c.rows["jobs"] = []*watch.Row{row("nightly-1"), row("nightly-manual"), row("weekly-1")}
		name := watch.Column{Name: "NAME", Type: "string", Format: "name"}
		c.columns["cronjobs"], c.columns["jobs"] = []watch.Column{name}, []watch.Column{name}
		c.objects["cronjobs/shop/nightly"] = &unstructured.Unstructured{Object: map[string]any{"apiVersion": "batch/v1",
			"kind": "CronJob", "metadata": map[string]any{"name": "nightly", "namespace": "shop", "uid": "uid-nightly"}}}
		c.owners = owners
	})
	waitFor(t, h, "weekly")
	h.press(tcell.KeyEnter, 0)
	h.eventually("jobs(cronjob nightly)[1]")
	h.contains("nightly-1")
	h.lacks("nightly-manual")
	h.lacks("weekly-1")
	owners.Set(job("nightly-1", "uid-nightly"), job("nightly-manual", "uid-nightly"), job("weekly-1", "uid-weekly"))
	h.eventually("jobs(cronjob nightly)[2]")
	h.contains("nightly-manual")
	h.press(tcell.KeyEscape, 0)
	h.eventually("cronjobs(shop)")
	h.lacks("jobs(cronjob")
}

// TestEnterOnNamespaceOpensLastResource: Enter on a namespace opened from the top (:namespaces) opens the last
// namespaced resource viewed before it, in that namespace; with none, the pods.
func TestEnterOnNamespaceOpensLastResource(t *testing.T) {
	h := start(t, 120, 20, func(o *Options) { o.Resource = "deployments" })
	waitFor(t, h, "web")
	h.command("secrets")
	h.eventually("secrets(shop)")
	h.command("namespaces")
	h.eventually("namespaces[2]")
	h.press(tcell.KeyEnter, 0) // data
	h.eventually("secrets(data)")
	h.contains("Namespace: data")

	first := start(t, 120, 20, func(o *Options) { o.Resource = "namespaces" })
	waitFor(t, first, "namespaces[2]")
	first.press(tcell.KeyDown, 0) // shop
	first.press(tcell.KeyEnter, 0)
	first.eventually("pods(shop)[3]")
}

// job is a job object in shop owned by the owners' UIDs.
func job(name string, owners ...types.UID) tree.Object {
	return treetest.Owned("shop", name, owners...)
}
