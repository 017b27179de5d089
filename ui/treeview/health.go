package treeview

import (
	"context"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/health"
	"kscope/tree"
	"kscope/ui"
	"kscope/ui/screenlife"
)

// treeHealthNodes is how many of a tree's nodes (the first, in the tree's order) have their health read: a
// node's metadata carries no status, so its health costs one GET of the object, again at each change of
// its resourceVersion.
const treeHealthNodes = 500

// treeHealthWorkers is how many of those GETs run at once.
const treeHealthWorkers = 4

// treeHealth reads the health of a tree's nodes: a GET of each object when it first appears and whenever its
// resourceVersion changes, by a few workers of its own. want and known run on the UI goroutine; the
// workers hand each outcome to done there.
type treeHealth struct {
	nav  ui.Navigator
	done func(uid types.UID)

	mu     sync.Mutex
	queue  []healthJob
	queued map[types.UID]string // the resourceVersion queued or being read, by UID
	wake   chan struct{}

	// entries are the outcomes, by UID (UI goroutine).
	entries map[types.UID]healthEntry
}

type healthJob struct {
	uid           types.UID
	gvr           schema.GroupVersionResource
	namespace     string
	name, version string
}

type healthEntry struct {
	version string
	h       health.Health
}

func newTreeHealth(nav ui.Navigator, done func(types.UID)) *treeHealth {
	return &treeHealth{nav: nav, done: done, queued: map[types.UID]string{}, wake: make(chan struct{}, 1),
		entries: map[types.UID]healthEntry{}}
}

// start runs the workers, reading from objects, until ctx ends.
func (th *treeHealth) start(ctx context.Context, objects cluster.Objects) {
	for range treeHealthWorkers {
		th.nav.Go(func() { th.work(ctx, objects) })
	}
}

// want queues the nodes (the first treeHealthNodes) whose health is not known at their resourceVersion.
func (th *treeHealth) want(nodes []tree.Node) {
	shown := make(map[types.UID]bool, min(len(nodes), treeHealthNodes))
	for i := 0; i < len(nodes) && i < treeHealthNodes; i++ {
		shown[nodes[i].Object.UID] = true
	}
	for uid := range th.entries { // objects gone from the tree
		if !shown[uid] {
			delete(th.entries, uid)
		}
	}
	th.mu.Lock()
	defer th.mu.Unlock()
	for i, n := range nodes {
		if i >= treeHealthNodes {
			break
		}
		o := n.Object
		if n.Missing || n.Repeat || o.Kind.GVR.Resource == "" {
			continue
		}
		if e, ok := th.entries[o.UID]; ok && e.version == o.ResourceVersion {
			continue
		}
		if v, ok := th.queued[o.UID]; ok && v == o.ResourceVersion {
			continue
		}
		th.queued[o.UID] = o.ResourceVersion
		th.queue = append(th.queue, healthJob{uid: o.UID, gvr: o.Kind.GVR, namespace: o.Namespace, name: o.Name,
			version: o.ResourceVersion})
	}
	if len(th.queue) > 0 {
		select {
		case th.wake <- struct{}{}:
		default:
		}
	}
}

// known returns the health of the object with uid, if read.
func (th *treeHealth) known(uid types.UID) (health.Health, bool) {
	e, ok := th.entries[uid]
	return e.h, ok
}

// next takes the next job, if any.
func (th *treeHealth) next() (healthJob, bool) {
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(th.queue) == 0 {
		return healthJob{}, false
	}
	j := th.queue[0]
	th.queue = th.queue[1:]
	if len(th.queue) > 0 { // another worker may take the rest
		select {
		case th.wake <- struct{}{}:
		default:
		}
	}
	return j, true
}

// work reads queued objects until ctx ends. Its own goroutine.
func (th *treeHealth) work(ctx context.Context, objects cluster.Objects) {
	for {
		j, ok := th.next()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-th.wake:
				continue
			}
		}
		rctx, cancel := context.WithTimeout(ctx, ui.RequestTimeout)
		obj, err := objects.Get(rctx, j.gvr, j.namespace, j.name)
		cancel()
		if ctx.Err() != nil {
			return
		}
		var h health.Health
		switch {
		case apierrors.IsNotFound(err):
			h = health.Of(nil)
		case err != nil:
			h = health.Health{Status: health.Unknown, Message: err.Error()}
		default:
			h = health.Of(obj)
		}
		screenlife.UpdateWhile(th.nav, ctx, func() {
			th.mu.Lock()
			if th.queued[j.uid] == j.version {
				delete(th.queued, j.uid)
			}
			th.mu.Unlock()
			th.entries[j.uid] = healthEntry{version: j.version, h: h}
			th.done(j.uid)
		})
	}
}
