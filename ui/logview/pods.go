package logview

import (
	"context"
	"sort"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/logs"
	"kscope/ui/screenlife"
	"kscope/watch"
)

// logPods watches the pods of a logs view's selector and keeps one follower per container of each,
// starting them as pods appear and stopping them as pods go. UI goroutine, except the source's own.
type logPods struct {
	v      *View
	src    cluster.RowSource
	cancel context.CancelFunc
	seen   map[string]bool // pods whose containers were asked for
}

// newLogPods starts watching the pods of v's selector, following the containers of those it lists.
func newLogPods(v *View) (*logPods, error) {
	spec := watch.Spec{GVR: podsGVR, Namespaced: true, Namespace: v.logs.namespace, LabelSelector: v.logs.selector}
	src, err := v.cluster.NewSource(spec)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(v.life.Context())
	p := &logPods{v: v, src: src, cancel: cancel, seen: map[string]bool{}}
	src.Start(ctx)
	p.sync()
	v.nav.Go(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-src.Notify():
				screenlife.UpdateWhile(v.nav, ctx, p.sync)
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
	get(v.life.Context(), v.nav, v.cluster, podsGVR, v.logs.namespace, pod, func(obj *unstructured.Unstructured, err error) {
		if !v.life.Live() || !p.seen[pod] {
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

// close stops the watch (its Stop may block: on a goroutine of its own) and the followers' starts.
func (p *logPods) close() {
	p.cancel()
	p.v.nav.Go(p.src.Stop)
}
