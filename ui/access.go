package ui

import (
	"context"
	"fmt"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/apierr"
	"kscope/discovery"
	"kscope/ui/keymap"
)

// accessNeed is the permission a verb needs: a verb on the object's resource, or on one of its subresources
// (scale: patch on deployments/scale), or on another resource's (port-forward of a deployment: create on
// pods/portforward).
type accessNeed struct {
	verb        string
	subresource string
	// resource, when set, is the resource asked about instead of the object's.
	resource schema.GroupVersionResource
}

// query is the need for an object of res in namespace.
func (n accessNeed) query(res discovery.Resource, namespace string) AccessQuery {
	gvr := res.GVR()
	if !n.resource.Empty() {
		gvr = n.resource
	}
	return AccessQuery{Verb: n.verb, GVR: gvr, Subresource: n.subresource, Namespace: namespace}
}

// accessCache holds the server's answers to the access questions of one view, for the view's life: each
// question is asked once (SelfSubjectAccessReview), the answer kept. A failed question is not kept, so
// the next use asks again. UI goroutine only; the questions go out on their own goroutines.
type accessCache struct {
	app     *App
	answers map[AccessQuery]AccessAnswer
	waiting map[AccessQuery][]func(AccessAnswer, error)
}

func newAccessCache(a *App) *accessCache {
	return &accessCache{app: a, answers: map[AccessQuery]AccessAnswer{}, waiting: map[AccessQuery][]func(AccessAnswer, error){}}
}

// known returns the kept answer to q, if the server has answered it.
func (c *accessCache) known(q AccessQuery) (AccessAnswer, bool) {
	ans, ok := c.answers[q]
	return ans, ok
}

// ask calls then with the answer to q: at once if it is known, else on the UI goroutine once the server
// answers (then nil: only asks, so that a later known finds the answer).
func (c *accessCache) ask(q AccessQuery, then func(AccessAnswer, error)) {
	if ans, ok := c.answers[q]; ok {
		if then != nil {
			then(ans, nil)
		}
		return
	}
	waiters, asked := c.waiting[q]
	if then != nil || !asked {
		c.waiting[q] = append(waiters, then)
	}
	if asked {
		return
	}
	a, cluster := c.app, c.app.cluster
	a.pending.Add(1) // until the answer is shown
	a.goSafe(func() {
		ctx, cancel := context.WithTimeout(a.ctx, RequestTimeout)
		defer cancel()
		ans, err := cluster.Can(ctx, q)
		a.tv.QueueUpdateDraw(func() {
			defer a.pending.Add(-1)
			waiters := c.waiting[q]
			delete(c.waiting, q)
			if a.cluster != cluster {
				return // answered by the previous context's server
			}
			if err == nil {
				c.answers[q] = ans
			}
			for _, then := range waiters {
				if then != nil {
					then(ans, err)
				}
			}
			if v := a.top(); v != nil {
				a.updateStatus(v)
			}
		})
	})
}

// permitted runs do once the user may make the request of need on an object of res in namespace; what names
// the write for the messages ("delete pods shop/web"). Read-only mode refuses it without a question; a
// verb the server says the user may not do is refused without the write. When the question itself fails
// (an old server, a timeout), the write goes ahead and the server decides.
func (a *App) permitted(access *accessCache, need accessNeed, res discovery.Resource, namespace, what string, do func()) {
	if a.opts.ReadOnly {
		a.errorf("read-only mode: refusing to %s", what)
		return
	}
	access.ask(need.query(res, namespace), func(ans AccessAnswer, err error) {
		switch {
		case err != nil:
			a.message(fmt.Sprintf("could not ask whether you may %s (%s); trying", what, apierr.OneLine(err.Error())))
			do()
		case !ans.Allowed:
			a.errorf("not permitted: you may not %s%s", what, reason(ans))
		default:
			do()
		}
	})
}

func reason(ans AccessAnswer) string {
	if ans.Reason == "" {
		return ""
	}
	return " (" + apierr.OneLine(ans.Reason) + ")"
}

// NotPermitted is the status line's note of the keys among bs the server said the user may not use ("" if
// none), asking the questions not yet asked so that a later call knows. UI goroutine only.
func NotPermitted(bs []keymap.Binding) string {
	if names := deniedNames(bs); names != "" {
		return "  [red]not permitted: " + tview.Escape(names) + "[-]"
	}
	return ""
}

// deniedNames returns the names of the bindings the server said the user may not use (asking the questions
// not yet asked, so that a later call knows), comma-separated; "" if none.
func deniedNames(bs []keymap.Binding) string {
	var names []string
	for _, b := range bs {
		if b.Denied() {
			names = append(names, b.Name)
		}
	}
	return strings.Join(names, ", ")
}
