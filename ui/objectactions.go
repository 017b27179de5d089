package ui

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/discovery"
	"kscope/watch"
)

// RequestTimeout bounds the UI's one-off requests (get for the owner, delete, a tree node's health); a screen
// in a package of its own bounds its requests with it too.
const RequestTimeout = 15 * time.Second

// request runs work off the UI goroutine within RequestTimeout, against the cluster of the moment, then
// then on the UI goroutine with its outcome, unless a context switch has replaced that cluster meanwhile.
func request[T any](a *App, work func(context.Context, Cluster) (T, error), then func(T, error)) {
	cluster := a.cluster // a.cluster is the UI goroutine's (a context switch replaces it)
	a.pending.Add(1)
	a.goSafe(func() {
		ctx, cancel := context.WithTimeout(a.ctx, RequestTimeout)
		defer cancel()
		v, err := work(ctx, cluster)
		a.tv.QueueUpdateDraw(func() {
			defer a.pending.Add(-1)
			if a.cluster == cluster { // else answered by the previous context's server
				then(v, err)
			}
		})
	})
}

// jumpToOwner opens the table of the controller of row (an object of res) with the controller selected.
func (a *App) jumpToOwner(res discovery.Resource, row *watch.Row) {
	gvr, ns, name := res.GVR(), row.Namespace, row.Name
	a.message("looking up the owner of " + name + " …")
	request(a, func(ctx context.Context, c Cluster) (*unstructured.Unstructured, error) {
		return c.Get(ctx, gvr, ns, name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			a.errorf("get %s: %s", name, err)
			return
		}
		ref := metav1.GetControllerOf(obj)
		if ref == nil {
			a.errorf("%s has no controller owner", name)
			return
		}
		res, err := a.resourceForKind(ref.APIVersion, ref.Kind)
		if err != nil {
			a.errorf("%s", err.Error())
			return
		}
		a.openOwner(res, ns, ref.Name)
	})
}

// openOwner pushes res's table in ns (all namespaces for cluster-scoped) with name selected.
func (a *App) openOwner(res discovery.Resource, ns, name string) {
	key := name
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced}
	if res.Namespaced {
		key = ns + "/" + name
		spec.Namespace = ns
	}
	a.openSpec(res, spec, res.Name, key)
}

// confirmDelete asks before deleting row, an object of res, with its UID as the precondition.
func (a *App) confirmDelete(res discovery.Resource, row *watch.Row) {
	what := fmt.Sprintf("%s %s", res.Name, row.Key)
	if !needUID(a, "deleting", what, row) {
		return
	}
	question := fmt.Sprintf("Delete %s %s?", res.Name, row.Name)
	a.confirm(question+namespaceLine(row), "Delete", func() {
		a.send("deleting "+what, "deleted "+what, func(ctx context.Context, c Cluster) error {
			return explainConflict(ctx, c, res, row, row.UID, c.Delete(ctx, res.GVR(), row.Namespace, row.Name, row.UID))
		})
	})
}

func (a *App) closeModal() {
	a.body.RemovePage("modal")
	a.modal = nil
	if v := a.top(); v != nil {
		a.tv.SetFocus(v.Primitive())
	}
}
