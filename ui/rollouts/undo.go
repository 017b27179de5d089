package rollouts

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/ui"
)

// undoSelected undoes the workload to the selected revision: the guard first (read-only mode, the server's
// access review), then a dry run on the server naming what would change, then the question (Cancel focused),
// then the write with the workload's UID as read; the revisions are read again after it.
func (v *View) undoSelected() {
	r, ok := v.selected()
	if !ok {
		return
	}
	what := fmt.Sprintf("undo %s %s to revision %d", v.res.Name, v.row.Key, r.Number)
	if r.Current {
		v.nav.Message(fmt.Sprintf("revision %d is the current one: nothing to undo", r.Number))
		return
	}
	uid := types.UID(v.uid)
	v.guard.Permitted(what, func() {
		v.nav.Message("trying " + what + " (dry run) …")
		v.request(func(ctx context.Context, c cluster.Interface) (map[string]any, error) {
			return c.Undo(ctx, v.res.GVR(), v.row.Namespace, v.row.Name, r.Number, uid, true)
		}, func(after map[string]any, err error) {
			if err != nil {
				v.nav.Errorf("not undoing: %s: %s", what, apierr.OneLine(err.Error()))
				return
			}
			v.nav.Message("")
			v.nav.Confirm(v.question(r, after), "Undo", func() { v.undo(r, uid, what) })
		})
	})
}

// question is the confirmation of the undo to r: the images now and after (as the dry run answered).
func (v *View) question(r cluster.Revision, after map[string]any) string {
	q := fmt.Sprintf("Undo %s %s to revision %d?", v.res.Name, v.row.Name, r.Number)
	if r.ChangeCause != "" {
		q += "\nchange-cause: " + r.ChangeCause
	}
	if cur, ok := current(v.revs); ok {
		q += "\nimages: " + strings.Join(images(cur.Template), ",") + " → " + strings.Join(images(after), ",")
	}
	if v.row.Namespace != "" {
		q += "\nnamespace: " + v.row.Namespace
	}
	return q
}

// undo writes the undo to r, then reads the revisions again.
func (v *View) undo(r cluster.Revision, uid types.UID, what string) {
	v.nav.Message(what + " …")
	v.request(func(ctx context.Context, c cluster.Interface) (map[string]any, error) {
		return c.Undo(ctx, v.res.GVR(), v.row.Namespace, v.row.Name, r.Number, uid, false)
	}, func(_ map[string]any, err error) {
		if err != nil {
			v.nav.Errorf("%s failed: %s", what, apierr.OneLine(err.Error()))
			return
		}
		v.nav.Message(fmt.Sprintf("undid %s %s to revision %d: rollout started", v.res.Name, v.row.Key, r.Number))
		v.load()
	})
}

// request runs call off the UI goroutine (the request timeout), then done on it.
func (v *View) request(call func(context.Context, cluster.Interface) (map[string]any, error), done func(map[string]any, error)) {
	c := v.nav.Cluster()
	v.nav.Go(func() {
		ctx, cancel := context.WithTimeout(v.nav.Context(), ui.RequestTimeout)
		defer cancel()
		out, err := call(ctx, c)
		v.nav.Update(func() { done(out, err) })
	})
}
