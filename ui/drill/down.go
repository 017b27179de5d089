package drill

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
	"kscope/config"
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

// Down opens what Enter shows below row, an object of res, as a k9s user expects: the rule of jumps for res
// (JumpFor), else a workload's or a service's pods (its selector, live), a cronjob's jobs (their
// ownerReferences, live), a pod's containers (with a containers screen registered), a node's pods
// (spec.nodeName, every namespace), a CRD's objects. It tells whether anything drills down from res (else
// Enter opens the YAML).
func Down(h Host, jumps []config.Jump, res discovery.Resource, row *watch.Row) bool {
	if j, ok := JumpFor(jumps, res); ok {
		jump(h, j, res, row)
		return true
	}
	key := res.Group + "/" + res.Name
	switch {
	case drillsBySelector[key]:
		h.Message("reading the selector of " + row.Name + " …")
		gvr, ns, name := res.GVR(), row.Namespace, row.Name
		request(h, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
			return c.Get(ctx, gvr, ns, name)
		}, func(obj *unstructured.Unstructured, err error) {
			if err != nil {
				h.Errorf("%s %s: %s", res.SingularName, name, apierr.OneLine(err.Error()))
				return
			}
			sel, err := podSelector(res, obj)
			if err != nil {
				h.Errorf("%s %s: %s", res.SingularName, name, err)
				return
			}
			openPods(h, watch.Spec{Namespace: ns, LabelSelector: sel}, res.SingularName+" "+name)
		})
	case key == "batch/cronjobs":
		h.Message("reading cronjob " + row.Name + " …")
		gvr, ns, name := res.GVR(), row.Namespace, row.Name
		request(h, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
			return c.Get(ctx, gvr, ns, name)
		}, func(obj *unstructured.Unstructured, err error) {
			if err != nil {
				h.Errorf("cronjob %s: %s", name, apierr.OneLine(err.Error()))
				return
			}
			h.Message("")
			openOwnedJobs(h, ns, name, obj.GetUID())
		})
	case key == "/pods":
		return h.OpenContainers(res, row)
	case key == "/nodes":
		openPods(h, watch.Spec{FieldSelector: "spec.nodeName=" + row.Name}, "node "+row.Name)
	case key == "apiextensions.k8s.io/customresourcedefinitions":
		h.OpenNamed(row.Name)
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
func openPods(h Host, spec watch.Spec, of string) {
	res := catalogEntry(h, podsResource())
	spec.GVR, spec.Namespaced = res.GVR(), true
	src, err := h.Cluster().NewSource(spec)
	if err != nil {
		h.Errorf("pods of %s: %s", of, err)
		return
	}
	h.OpenTable(res, src, "pods("+of+")", true)
}

// jobsResource is batch/v1 jobs, what a cronjob drills down to.
func jobsResource() discovery.Resource {
	return discovery.Resource{Group: "batch", Version: "v1", Name: "jobs", SingularName: "job", Kind: "Job",
		Verbs: []string{"get", "list", "watch", "delete"}, Namespaced: true}
}

// openOwnedJobs pushes a live table of the jobs in namespace ns that the cronjob name (uid) owns by their
// ownerReferences: the namespace's jobs, kept by the owners a metadata watch of them reads (jobs carry no
// label naming their cronjob). It keeps its namespace when the user switches.
func openOwnedJobs(h Host, ns, name string, uid types.UID) {
	res := catalogEntry(h, jobsResource())
	of := "cronjob " + name
	c := h.Cluster()
	src, err := c.NewSource(watch.Spec{GVR: res.GVR(), Namespaced: true, Namespace: ns})
	if err != nil {
		h.Errorf("jobs of %s: %s", of, err)
		return
	}
	owners, err := c.NewTreeSource([]tree.Kind{{GVR: res.GVR(), Kind: res.Kind, Namespaced: true}}, ns)
	if err != nil {
		h.Errorf("jobs of %s: %s", of, err)
		return
	}
	h.OpenTable(res, union.NewOwned(h.Spawn(), src, owners, uid), "jobs("+of+")", true)
}
