package verbs

import (
	"context"
	"fmt"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/apierr"
	"kscope/cluster"
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
func (n accessNeed) query(res discovery.Resource, namespace string) cluster.AccessQuery {
	gvr := res.GVR()
	if !n.resource.Empty() {
		gvr = n.resource
	}
	return cluster.AccessQuery{Verb: n.verb, GVR: gvr, Subresource: n.subresource, Namespace: namespace}
}

// Access holds the server's answers to the access questions of one view, for the view's life: each
// question is asked once (SelfSubjectAccessReview), the answer kept. A failed question is not kept, so
// the next use asks again. UI goroutine only; the questions go out on their own goroutines.
type Access struct {
	h       Host
	answers map[cluster.AccessQuery]cluster.AccessAnswer
	waiting map[cluster.AccessQuery][]func(cluster.AccessAnswer, error)
}

// NewAccess returns an empty Access of a view of the app h.
func NewAccess(h Host) *Access {
	return &Access{h: h, answers: map[cluster.AccessQuery]cluster.AccessAnswer{},
		waiting: map[cluster.AccessQuery][]func(cluster.AccessAnswer, error){}}
}

// known returns the kept answer to q, if the server has answered it.
func (c *Access) known(q cluster.AccessQuery) (cluster.AccessAnswer, bool) {
	ans, ok := c.answers[q]
	return ans, ok
}

// Asking is how many questions are out, not yet answered.
func (c *Access) Asking() int { return len(c.waiting) }

// ask calls then with the answer to q: at once if it is known, else on the UI goroutine once the server
// answers (then nil: only asks, so that a later known finds the answer).
func (c *Access) ask(q cluster.AccessQuery, then func(cluster.AccessAnswer, error)) {
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
	h, conn := c.h, c.h.Cluster()
	h.Pending(1) // until the answer is shown
	h.Go(func() {
		ctx, cancel := context.WithTimeout(h.Context(), RequestTimeout)
		defer cancel()
		ans, err := conn.Can(ctx, q)
		h.Update(func() {
			defer h.Pending(-1)
			waiters := c.waiting[q]
			delete(c.waiting, q)
			if h.Cluster() != conn {
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
			h.ShowStatus()
		})
	})
}

// permitted runs do once the user may make the request of need on an object of res in namespace; what names
// the write for the messages ("delete pods shop/web"). Read-only mode refuses it without a question; a
// verb the server says the user may not do is refused without the write. When the question itself fails
// (an old server, a timeout), the write goes ahead and the server decides.
func (v *Verbs) permitted(access *Access, need accessNeed, res discovery.Resource, namespace, what string, do func()) {
	if v.ReadOnly() {
		v.Errorf("read-only mode: refusing to %s", what)
		return
	}
	access.ask(need.query(res, namespace), func(ans cluster.AccessAnswer, err error) {
		switch {
		case err != nil:
			v.Message(fmt.Sprintf("could not ask whether you may %s (%s); trying", what, apierr.OneLine(err.Error())))
			do()
		case !ans.Allowed:
			v.Errorf("not permitted: you may not %s%s", what, reason(ans))
		default:
			do()
		}
	})
}

func reason(ans cluster.AccessAnswer) string {
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
