package logview

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/logs"
	"kscope/ui"
	"kscope/watch"
)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// Open opens the logs of row, an object of res (ui.Roles.Logs): a pod's containers (the user picks
// one when it has several, or all of them; settings.Container, when set, is the one read, without asking),
// or every pod a workload or service selects; previous reads the containers' previous instances (kubectl
// logs -p). It reads the object off the UI goroutine and pushes the view once it knows what to follow, or
// says on the prompt line why there is none. settings are the app's for the logs. UI goroutine.
func Open(nav ui.Navigator, res discovery.Resource, row *watch.Row, previous bool, settings ui.LogSettings) {
	if err := logsApply(res); err != nil {
		nav.Errorf("%s", err.Error())
		return
	}
	nav.Message("reading " + row.Name + " …")
	get(nav.Context(), nav, nav.Cluster(), res.GVR(), row.Namespace, row.Name, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			nav.Errorf("logs of %s: %s", row.Name, err)
			return
		}
		nav.Message("")
		s := subject{kind: res.Name, name: row.Name, namespace: row.Namespace, previous: previous}
		if isPods(res) {
			s.pod = row.Name
			if settings.Container != "" { // the containers view's choice
				s.containers = []string{settings.Container}
				nav.Push(newView(nav, s, settings))
				return
			}
			chooseContainers(nav, obj, "logs of "+row.Name, func(containers []string) {
				s.containers = containers
				nav.Push(newView(nav, s, settings))
			})
			return
		}
		if s.selector, err = logs.PodSelector(obj); err != nil {
			nav.Errorf("logs of %s: %s", row.Name, err)
			return
		}
		nav.Push(newView(nav, s, settings))
	})
}

// isPods tells whether res is core/v1 pods.
func isPods(res discovery.Resource) bool { return res.GVR() == podsGVR }

// logsApply tells whether res has logs: pods, and what selects pods (workloads, services); else one line.
func logsApply(res discovery.Resource) error {
	switch {
	case isPods(res), res.Group == "" && res.Name == "services":
		return nil
	case res.Group == "apps" && (res.Name == "deployments" || res.Name == "replicasets" ||
		res.Name == "statefulsets" || res.Name == "daemonsets"):
		return nil
	case res.Group == "batch" && res.Name == "jobs":
		return nil
	}
	return fmt.Errorf("%s have no logs: pods have, and the workloads and services that select pods", res.FullName())
}

// get reads one object from c off the UI goroutine, within ui.RequestTimeout, then calls then on the UI
// goroutine with the answer, unless ctx has ended or a context switch has replaced c meanwhile.
func get(ctx context.Context, nav ui.Navigator, c cluster.Interface, gvr schema.GroupVersionResource,
	namespace, name string, then func(*unstructured.Unstructured, error)) {
	nav.Go(func() {
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		defer cancel()
		obj, err := c.Get(rctx, gvr, namespace, name)
		nav.Update(func() {
			if ctx.Err() == nil && nav.Cluster() == c {
				then(obj, err)
			}
		})
	})
}

// allContainers is the choice that reads every container of a pod.
const allContainers = "(all containers)"

// chooseContainers calls then with the containers of pod to read: the only one, else the user's choice
// (the default one preselected; the last choice reads them all).
func chooseContainers(nav ui.Navigator, pod *unstructured.Unstructured, title string, then func([]string)) {
	names, chosen := logs.PodContainers(pod)
	switch {
	case len(names) == 0:
		nav.Errorf("%s has no containers", pod.GetName())
		return
	case len(names) == 1:
		then(names)
		return
	}
	items := append(append([]string(nil), names...), allContainers)
	selected := 0
	for i, n := range items {
		if n == chosen {
			selected = i
		}
	}
	nav.Choose(title+": which container?", items, selected, func(i int) {
		if items[i] == allContainers {
			then(names)
			return
		}
		then([]string{items[i]})
	})
}
