package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/rivo/tview"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/discovery"
	"kscope/watch"
)

// requestTimeout bounds the UI's one-off requests (get for the owner, delete).
const requestTimeout = 15 * time.Second

// jumpToOwner opens the table of the controller of row (an object of res) with the controller selected.
func (a *App) jumpToOwner(res discovery.Resource, row *watch.Row) {
	gvr, ns, name := res.GVR(), row.Namespace, row.Name
	a.message("looking up the owner of " + name + " …")
	cluster := a.cluster // a.cluster is the UI goroutine's (a context switch replaces it)
	a.goSafe(func() {
		ctx, cancel := context.WithTimeout(a.ctx, requestTimeout)
		defer cancel()
		obj, err := cluster.Get(ctx, gvr, ns, name)
		a.tv.QueueUpdateDraw(func() {
			if a.cluster != cluster {
				return // answered by the previous context's server
			}
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

// confirmDelete asks before deleting row, an object of res; in read-only mode it refuses without a request.
func (a *App) confirmDelete(res discovery.Resource, row *watch.Row) {
	what := fmt.Sprintf("%s %s", res.Name, row.Key)
	if a.opts.ReadOnly {
		a.errorf("read-only mode: not deleting %s", what)
		return
	}
	if !res.Has("delete") {
		a.errorf("%s cannot be deleted (verbs: no delete)", res.FullName())
		return
	}
	if row.UID == "" {
		a.errorf("not deleting %s yet: its UID is still being read (try again in a moment)", what)
		return
	}
	question := fmt.Sprintf("Delete %s %s?", res.Name, row.Name)
	if row.Namespace != "" {
		question += "\nnamespace: " + row.Namespace
	}
	modal := tview.NewModal().SetText(tview.Escape(question)).AddButtons([]string{"Cancel", "Delete"})
	modal.SetDoneFunc(func(_ int, label string) {
		a.closeModal()
		if label == "Delete" {
			a.delete(res, row, what)
		}
	})
	a.modal = modal
	a.body.AddPage("modal", modal, true, true)
	a.tv.SetFocus(modal)
}

func (a *App) closeModal() {
	a.body.RemovePage("modal")
	a.modal = nil
	if v := a.top(); v != nil {
		a.tv.SetFocus(v.primitive())
	}
}

// delete sends the delete request off the UI goroutine and reports the outcome.
func (a *App) delete(res discovery.Resource, row *watch.Row, what string) {
	a.message("deleting " + what + " …")
	cluster := a.cluster // a.cluster is the UI goroutine's (a context switch replaces it)
	a.goSafe(func() {
		ctx, cancel := context.WithTimeout(a.ctx, requestTimeout)
		defer cancel()
		err := cluster.Delete(ctx, res.GVR(), row.Namespace, row.Name, row.UID)
		a.tv.QueueUpdateDraw(func() {
			if err != nil {
				a.errorf("delete %s: %s", what, err)
				return
			}
			a.message("deleted " + what)
		})
	})
}
