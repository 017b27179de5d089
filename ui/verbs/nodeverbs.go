package verbs

import (
	"context"
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

var nodesGVR = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}

// isNodes tells whether res is the core nodes resource.
func isNodes(res discovery.Resource) bool { return res.GVR() == nodesGVR }

// nodeVerb is the applies func of a verb on nodes, which patches them.
func nodeVerb(action string) func(discovery.Resource) error {
	return func(res discovery.Resource) error {
		if !isNodes(res) {
			return fmt.Errorf("%s cannot be %s: only nodes can", res.FullName(), action)
		}
		return hasVerbs(action, "patch")(res)
	}
}

var (
	cordonVerb = verb{key: keymap.Keys.Node.Cordon, need: accessNeed{verb: "patch"}, applies: nodeVerb("cordoned"),
		start: func(v *Verbs, res discovery.Resource, row *watch.Row) { v.confirmCordon(res, row, true) }}
	uncordonVerb = verb{key: keymap.Keys.Node.Uncordon, need: accessNeed{verb: "patch"}, applies: nodeVerb("uncordoned"),
		start: func(v *Verbs, res discovery.Resource, row *watch.Row) { v.confirmCordon(res, row, false) }}
	drainVerb = verb{key: keymap.Keys.Node.Drain, need: accessNeed{verb: "patch"}, applies: nodeVerb("drained"),
		start: (*Verbs).startDrain}
)

// defaultDrain is the drain dialog's first values: each pod's own grace period, two minutes, daemonsets'
// pods left alone (kubectl drain refuses a node that runs any without --ignore-daemonsets).
var defaultDrain = cluster.DrainOptions{GracePeriod: -1, Timeout: 2 * time.Minute, IgnoreDaemonSets: true}

// confirmCordon asks before cordoning (on) or uncordoning row, a node, with its UID as the precondition.
func (v *Verbs) confirmCordon(res discovery.Resource, row *watch.Row, on bool) {
	verb, what := "uncordon", "new pods may be scheduled on it again"
	if on {
		verb, what = "cordon", "no new pod is scheduled on it; its pods stay"
	}
	if !needUID(v, verb+"ing", "node "+row.Name, row) {
		return
	}
	title := strings.ToUpper(verb[:1]) + verb[1:]
	v.Confirm(fmt.Sprintf("%s node %s?\n%s", title, row.Name, what), title, func() {
		v.send(verb+"ing node "+row.Name, verb+"ed node "+row.Name, func(ctx context.Context, c cluster.Interface) error {
			return explainConflict(ctx, c, res, row, row.UID, c.Cordon(ctx, row.Name, on, cluster.Precondition{UID: row.UID}))
		})
	})
}

// startDrain asks for drain's flags (the last ones used this session), then what the drain would evict.
func (v *Verbs) startDrain(res discovery.Resource, row *watch.Row) {
	if !needUID(v, "draining", "node "+row.Name, row) {
		return
	}
	if v.drainOptions == nil {
		opts := defaultDrain
		v.drainOptions = &opts
	}
	v.drainForm(row.Name, *v.drainOptions, func(opts cluster.DrainOptions) {
		*v.drainOptions = opts
		v.planDrain(row, opts)
	})
}

// planDrain asks the server what draining row with opts would evict, then asks the user (Cancel focused).
func (v *Verbs) planDrain(row *watch.Row, opts cluster.DrainOptions) {
	v.Message("reading the pods on node " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (cluster.DrainPlan, error) {
		return c.DrainPlan(ctx, row.Name, opts)
	}, func(plan cluster.DrainPlan, err error) {
		if err != nil {
			v.Errorf("drain node %s: %s", row.Name, err)
			return
		}
		v.Message("")
		v.Confirm(drainQuestion(row.Name, opts, plan), "Drain", func() { v.drain(row, opts, len(plan.Evict)) })
	})
}

// drainQuestion is the drain's confirmation: what is cordoned and evicted, the warnings, the flags.
func drainQuestion(node string, opts cluster.DrainOptions, plan cluster.DrainPlan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Drain node %s?\nit is cordoned, then ", node)
	const shown = 6
	switch n := len(plan.Evict); {
	case n == 0:
		b.WriteString("no pod needs evicting")
	case n <= shown:
		fmt.Fprintf(&b, "%d pods are evicted: %s", n, strings.Join(plan.Evict, ", "))
	default:
		fmt.Fprintf(&b, "%d pods are evicted: %s and %d more", n, strings.Join(plan.Evict[:shown], ", "), n-shown)
	}
	if plan.Warnings != "" {
		b.WriteString("\n" + plan.Warnings)
	}
	grace := "each pod's own"
	if opts.GracePeriod >= 0 {
		grace = fmt.Sprintf("%ds", opts.GracePeriod)
	}
	timeout := "none"
	if opts.Timeout > 0 {
		timeout = opts.Timeout.String()
	}
	fmt.Fprintf(&b, "\ngrace period: %s, timeout: %s", grace, timeout)
	return b.String()
}

// drain drains row in the background, its progress on the prompt line: planned is how many pods the plan
// listed (the drain reads them again).
func (v *Verbs) drain(row *watch.Row, opts cluster.DrainOptions, planned int) {
	name, pre := row.Name, cluster.Precondition{UID: row.UID}
	c := v.Cluster() // v.Cluster() is the UI goroutine's (a context switch replaces it)
	p := &drainProgress{node: name, planned: planned}
	v.Message(p.String())
	v.Go(func() {
		ctx, cancel := v.Context(), context.CancelFunc(func() {})
		if opts.Timeout > 0 {
			ctx, cancel = context.WithTimeout(v.Context(), opts.Timeout+RequestTimeout)
		}
		defer cancel()
		err := c.Drain(ctx, name, opts, pre, func(ev cluster.DrainEvent) {
			v.Update(func() {
				p.add(ev)
				v.Message(p.String())
			})
		})
		v.Update(func() {
			if msg := p.result(err); err != nil || len(p.failed) > 0 {
				v.Errorf("%s", msg)
			} else {
				v.Message(msg)
			}
		})
	})
}
