package ui

import (
	"context"
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/apierr"
	"kscope/discovery"
	"kscope/logs"
	"kscope/watch"
)

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

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

// openLogs opens the logs of row: a pod's container (chosen when it has several), or every pod of a
// workload or service.
func (a *App) openLogs(res discovery.Resource, row *watch.Row) { a.startLogs(res, row, false) }

// openPreviousLogs opens the logs of the previous instance of the containers (kubectl logs -p).
func (a *App) openPreviousLogs(res discovery.Resource, row *watch.Row) { a.startLogs(res, row, true) }

func (a *App) startLogs(res discovery.Resource, row *watch.Row, previous bool) {
	if err := logsApply(res); err != nil {
		a.errorf("%s", err.Error())
		return
	}
	a.message("reading " + row.Name + " …")
	request(a, func(ctx context.Context, c Cluster) (*unstructured.Unstructured, error) {
		return c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			a.errorf("logs of %s: %s", row.Name, err)
			return
		}
		a.message("")
		s := logSubject{kind: res.Name, name: row.Name, namespace: row.Namespace, previous: previous}
		if isPods(res) {
			s.pod = row.Name
			a.chooseContainers(obj, "logs of "+row.Name, true, func(containers []string) {
				s.containers = containers
				a.push(NewLogView(a, s))
			})
			return
		}
		if s.selector, err = logs.PodSelector(obj); err != nil {
			a.errorf("logs of %s: %s", row.Name, err)
			return
		}
		a.push(NewLogView(a, s))
	})
}

// allContainers is the choice that reads every container of a pod.
const allContainers = "(all containers)"

// chooseContainers calls then with the containers of pod to use: the only one, else the user's choice
// (the default one preselected; withAll offers every container at once).
func (a *App) chooseContainers(pod *unstructured.Unstructured, title string, withAll bool, then func([]string)) {
	names, chosen := logs.PodContainers(pod)
	switch {
	case len(names) == 0:
		a.errorf("%s has no containers", pod.GetName())
		return
	case len(names) == 1:
		then(names)
		return
	}
	items := names
	if withAll {
		items = append(append([]string(nil), names...), allContainers)
	}
	selected := 0
	for i, n := range items {
		if n == chosen {
			selected = i
		}
	}
	a.Choose(title+": which container?", items, selected, func(i int) {
		if items[i] == allContainers {
			then(names)
			return
		}
		then([]string{items[i]})
	})
}

// logPods watches the pods of a logs view's selector and keeps one follower per container of each,
// starting them as pods appear and stopping them as pods go. UI goroutine, except the source's own.
type logPods struct {
	v      *LogView
	src    RowSource
	cancel context.CancelFunc
	seen   map[string]bool // pods whose containers were asked for
}

func newLogPods(v *LogView) (*logPods, error) {
	spec := watch.Spec{GVR: podsGVR, Namespaced: true, Namespace: v.logs.namespace, LabelSelector: v.logs.selector}
	src, err := v.app.cluster.NewSource(spec)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(v.ctx)
	p := &logPods{v: v, src: src, cancel: cancel, seen: map[string]bool{}}
	src.Start(ctx)
	p.sync()
	v.app.goSafe(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Notify():
				v.app.tv.QueueUpdateDraw(func() {
					if ctx.Err() == nil {
						p.sync()
					}
				})
			}
		}
	})
	return p, nil
}

// sync follows the pods the source lists now and stops following those it no longer lists.
func (p *logPods) sync() {
	p.src.Changes()
	snap := p.src.Snapshot(watch.Query{SortColumn: -1})
	now := map[string]bool{}
	var added []string
	for _, r := range snap.Rows {
		now[r.Name] = true
		if !p.seen[r.Name] {
			p.seen[r.Name] = true
			added = append(added, r.Name)
		}
	}
	for name := range p.seen {
		if !now[name] {
			delete(p.seen, name)
			p.v.unfollow(name)
		}
	}
	sort.Strings(added)
	for _, name := range added {
		p.start(name)
	}
}

// start reads pod's container names, then follows each.
func (p *logPods) start(pod string) {
	v := p.v
	request(v.app, func(ctx context.Context, c Cluster) (*unstructured.Unstructured, error) {
		return c.Get(ctx, podsGVR, v.logs.namespace, pod)
	}, func(obj *unstructured.Unstructured, err error) {
		if v.ctx.Err() != nil || !p.seen[pod] {
			return
		}
		if err != nil {
			v.sink.SetState(pod, apierr.OneLine(err.Error()), true)
			return
		}
		names, _ := logs.PodContainers(obj)
		for _, c := range names {
			v.follow(pod, c)
		}
	})
}

func (p *logPods) close() {
	p.cancel()
	p.v.app.goSafe(p.src.Stop)
}
