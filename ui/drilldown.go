package ui

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/tree"
	"kscope/union"
	"kscope/watch"
)

// podsResource is core/v1 pods, what a workload, a service or a node drills down to.
func podsResource() discovery.Resource {
	return discovery.Resource{Version: "v1", Name: "pods", SingularName: "pod", Kind: "Pod", ShortNames: []string{"po"},
		Verbs: []string{"get", "list", "watch", "delete"}, Namespaced: true}
}

// drillsBySelector are the kinds whose Enter opens the pods their selector picks (spec.selector: a label
// selector; a service's: a map of labels), as k9s does.
var drillsBySelector = map[string]bool{
	"apps/deployments": true, "apps/replicasets": true, "apps/statefulsets": true, "apps/daemonsets": true,
	"batch/jobs": true, "/services": true,
}

// drillDown opens what Enter shows below row, an object of res, as a k9s user expects: a workload's or a
// service's pods (its selector, live), a cronjob's jobs (their ownerReferences, live), a pod's containers
// (with a containers screen registered), a node's pods (spec.nodeName, every namespace), a CRD's objects.
// A rule of jumps.yaml for res comes first (jumps.go). It tells whether res drills down at all (else Enter
// opens the YAML).
func (a *App) drillDown(res discovery.Resource, row *watch.Row) bool {
	if j, ok := a.jumpFor(res); ok {
		a.jump(j, res, row)
		return true
	}
	key := res.Group + "/" + res.Name
	switch {
	case drillsBySelector[key]:
		a.message("reading the selector of " + row.Name + " …")
		gvr, ns, name := res.GVR(), row.Namespace, row.Name
		request(a, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
			return c.Get(ctx, gvr, ns, name)
		}, func(obj *unstructured.Unstructured, err error) {
			if err != nil {
				a.errorf("%s %s: %s", res.SingularName, name, apierr.OneLine(err.Error()))
				return
			}
			sel, err := podSelector(res, obj)
			if err != nil {
				a.errorf("%s %s: %s", res.SingularName, name, err)
				return
			}
			a.openPods(watch.Spec{Namespace: ns, LabelSelector: sel}, res.SingularName+" "+name)
		})
	case key == "batch/cronjobs":
		a.message("reading cronjob " + row.Name + " …")
		gvr, ns, name := res.GVR(), row.Namespace, row.Name
		request(a, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
			return c.Get(ctx, gvr, ns, name)
		}, func(obj *unstructured.Unstructured, err error) {
			if err != nil {
				a.errorf("cronjob %s: %s", name, apierr.OneLine(err.Error()))
				return
			}
			a.message("")
			a.openOwnedJobs(ns, name, obj.GetUID())
		})
	case key == "/pods":
		return a.openContainers(res, row)
	case key == "/nodes":
		a.openPods(watch.Spec{FieldSelector: "spec.nodeName=" + row.Name}, "node "+row.Name)
	case key == "apiextensions.k8s.io/customresourcedefinitions":
		a.resolveThen(a.cluster.Catalog(), row.Name, func(r discovery.Resource) { a.openResource(r, "") })
	default:
		return false
	}
	return true
}

// podSelector is the label selector of obj's pods, as kubectl's selectors print ("app=web,tier in (a,b)").
func podSelector(res discovery.Resource, obj *unstructured.Unstructured) (string, error) {
	if res.Name == "services" {
		m, _, err := unstructured.NestedStringMap(obj.Object, "spec", "selector")
		if err != nil {
			return "", fmt.Errorf("read its selector: %w", err)
		}
		if len(m) == 0 {
			return "", fmt.Errorf("no selector: its endpoints are not chosen by labels")
		}
		return labels.SelectorFromSet(m).String(), nil
	}
	raw, ok, err := unstructured.NestedMap(obj.Object, "spec", "selector")
	if err != nil || !ok {
		return "", fmt.Errorf("no pod selector")
	}
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
		return "", fmt.Errorf("read its selector: %w", err)
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return "", fmt.Errorf("read its selector: %w", err)
	}
	if sel.Empty() {
		return "", fmt.Errorf("its selector picks every pod: open :pods instead")
	}
	return sel.String(), nil
}

// openPods pushes a live table of the pods spec selects ("" namespace: every namespace), titled after what
// they belong to; it keeps its namespace when the user switches (as one object's events do).
func (a *App) openPods(spec watch.Spec, of string) {
	res := a.catalogEntry(podsResource())
	spec.GVR, spec.Namespaced = res.GVR(), true
	src, err := a.cluster.NewSource(spec)
	if err != nil {
		a.errorf("pods of %s: %s", of, err)
		return
	}
	t := a.newTable(res, src, "pods("+of+")")
	t.KeepNamespace()
	a.push(t)
}

// jobsResource is batch/v1 jobs, what a cronjob drills down to.
func jobsResource() discovery.Resource {
	return discovery.Resource{Group: "batch", Version: "v1", Name: "jobs", SingularName: "job", Kind: "Job",
		Verbs: []string{"get", "list", "watch", "delete"}, Namespaced: true}
}

// openOwnedJobs pushes a live table of the jobs in namespace ns that the cronjob name (uid) owns by their
// ownerReferences: the namespace's jobs, kept by the owners a metadata watch of them reads (jobs carry no
// label naming their cronjob). It keeps its namespace when the user switches.
func (a *App) openOwnedJobs(ns, name string, uid types.UID) {
	res := a.catalogEntry(jobsResource())
	of := "cronjob " + name
	src, err := a.cluster.NewSource(watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: ns})
	if err != nil {
		a.errorf("jobs of %s: %s", of, err)
		return
	}
	owners, err := a.cluster.NewTreeSource([]tree.Kind{{GVR: res.GVR(), Kind: res.Kind, Namespaced: true}}, ns)
	if err != nil {
		a.errorf("jobs of %s: %s", of, err)
		return
	}
	t := a.newTable(res, union.NewOwned(a.sup.Func(), src, owners, uid), "jobs("+of+")")
	t.KeepNamespace()
	a.push(t)
}

// enterNamespace is Enter on a namespace: it switches to ns, and the view below the namespaces (a namespaced
// table) reopens there; with none (the namespaces were opened from the top), it opens the last namespaced
// resource viewed before them, in ns, else the pods.
func (a *App) enterNamespace(ns string) {
	a.setNamespace(ns)
	if len(a.stack) > 1 {
		return
	}
	if res, ok := a.history.lastNamespaced(); ok {
		a.openTop(res)
		return
	}
	a.command("pods")
}

// lastNamespaced is the last namespaced resource opened up to the current position of the history.
func (h *viewHistory) lastNamespaced() (discovery.Resource, bool) {
	for i := min(h.at, len(h.entries)-1); i >= 0; i-- {
		if h.entries[i].Namespaced {
			return h.entries[i], true
		}
	}
	return discovery.Resource{}, false
}
