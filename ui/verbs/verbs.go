package verbs

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// verb is one write on an object: its key (in Keys), the permission it needs, the resources
// it applies to, and how it starts (asking first) once the server says the user may.
type verb struct {
	key  keymap.KeyDef
	need accessNeed
	// applies returns nil when the verb exists for res, else one line saying why not.
	applies func(res discovery.Resource) error
	start   func(v *Verbs, res discovery.Resource, row *watch.Row)
	// inNamespace: the verb creates its object in the namespace of the moment (Host.Namespace), which need is
	// asked about, not the object's.
	inNamespace bool
}

// namespace is the namespace need is asked about for an object in ns.
func (vb verb) namespace(v *Verbs, ns string) string {
	if vb.inNamespace {
		return v.Namespace()
	}
	return ns
}

// run checks that the verb applies to res and that the user may, then starts it on row.
func (vb verb) run(v *Verbs, access *Access, res discovery.Resource, row *watch.Row) {
	if err := vb.applies(res); err != nil {
		v.Errorf("%s", err.Error())
		return
	}
	what := fmt.Sprintf("%s %s %s", vb.key.Name, res.Name, row.Key)
	v.permitted(access, vb.need, res, vb.namespace(v, row.Namespace), what, func() { vb.start(v, res, row) })
}

// hasVerbs returns an applies func requiring the API verbs.
func hasVerbs(action string, verbs ...string) func(discovery.Resource) error {
	return func(res discovery.Resource) error {
		for _, v := range verbs {
			if !res.Has(v) {
				return fmt.Errorf("%s cannot be %s (verbs: no %s)", res.FullName(), action, v)
			}
		}
		return nil
	}
}

var (
	editVerb = verb{key: keymap.Keys.Object.Edit,
		need: accessNeed{verb: "update"}, applies: hasVerbs("edited", "get", "update"), start: (*Verbs).startEdit}
	scaleVerb = verb{key: keymap.Keys.Object.Scale,
		need: accessNeed{verb: "patch", subresource: "scale"}, applies: scalable, start: (*Verbs).startScale}
	restartVerb = verb{key: keymap.Keys.Object.Restart,
		need: accessNeed{verb: "patch"}, applies: restartable, start: (*Verbs).confirmRestart}
	deleteVerb = verb{key: keymap.Keys.Object.Delete,
		need: accessNeed{verb: "delete"}, applies: hasVerbs("deleted", "delete"), start: (*Verbs).confirmDelete}
)

// scalable: the resources whose discovery lists a scale subresource.
func scalable(res discovery.Resource) error {
	if !res.HasSubresource("scale") {
		return fmt.Errorf("%s cannot be scaled: it has no scale subresource", res.FullName())
	}
	return nil
}

// Restartable tells whether res is a workload `kubectl rollout restart` restarts and whose revisions
// `kubectl rollout history` lists: apps' deployments, statefulsets and daemonsets. The one place kscope
// decides it (the restart verb, the rollouts screen's key); safe from any goroutine.
func Restartable(res discovery.Resource) bool {
	return res.Group == "apps" && (res.Name == "deployments" || res.Name == "statefulsets" || res.Name == "daemonsets")
}

// restartable: what `kubectl rollout restart` restarts (Restartable), or why res is not.
func restartable(res discovery.Resource) error {
	if Restartable(res) {
		return nil
	}
	return fmt.Errorf("%s cannot be restarted: only deployments, statefulsets and daemonsets can", res.FullName())
}

// startScale reads the scale of row (refused if it is no longer the object row shows), then prompts for the
// new count.
func (v *Verbs) startScale(res discovery.Resource, row *watch.Row) {
	what := res.Name + " " + row.Key
	if !needUID(v, "scaling", what, row) {
		return
	}
	v.Message("reading the scale of " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (cluster.ScaleState, error) {
		return c.Replicas(ctx, res.GVR(), row.Namespace, row.Name)
	}, func(state cluster.ScaleState, err error) {
		if err == nil && state.UID != "" && state.UID != row.UID {
			err = &conflictError{why: reCreated}
		}
		if err != nil {
			v.Errorf("not scaling %s: %s", what, err)
			return
		}
		if state.UID == "" { // a scale subresource without metadata: at least the object's UID
			state.UID = row.UID
		}
		v.Message("")
		label := fmt.Sprintf("scale %s %s (now %d) to: ", res.Name, row.Name, state.Replicas)
		v.Ask(label, "", func(text string) { v.confirmScale(res, row, state, text) })
	})
}

// parseReplicas reads a replica count: a whole number, 0 or more.
func parseReplicas(text string) (int32, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 32)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a replica count: %q (a whole number, 0 or more)", text)
	}
	return int32(n), nil
}

// confirmScale asks before scaling row from the state read to the count text gives; a bad count sends
// nothing. The scale carries the state's precondition: a change since the read (an autoscaler, another
// user) is a conflict reported on the status line, never overwritten.
func (v *Verbs) confirmScale(res discovery.Resource, row *watch.Row, state cluster.ScaleState, text string) {
	n, err := parseReplicas(text)
	if err != nil {
		v.Errorf("%s", err.Error())
		return
	}
	question := fmt.Sprintf("Scale %s %s from %d to %d replicas?", res.Name, row.Name, state.Replicas, n)
	v.Confirm(question+namespaceLine(row), "Scale", func() {
		what := fmt.Sprintf("%s %s", res.Name, row.Key)
		v.send("scaling "+what, fmt.Sprintf("scaled %s to %d", what, n), func(ctx context.Context, c cluster.Interface) error {
			err := c.Scale(ctx, res.GVR(), row.Namespace, row.Name, n, state.Precondition)
			if apierrors.IsConflict(err) {
				return scaleConflict(ctx, c, res, row, state, err)
			}
			return explainConflict(ctx, c, res, row, state.UID, err)
		})
	})
}

// scaleConflict says what changed when the server refused a scale from state (Conflict): the replicas, as
// read again, or else what explainConflict finds.
func scaleConflict(ctx context.Context, c cluster.Interface, res discovery.Resource, row *watch.Row, state cluster.ScaleState, err error) error {
	now, rerr := c.Replicas(ctx, res.GVR(), row.Namespace, row.Name)
	switch {
	case rerr != nil || now.UID != state.UID:
		return explainConflict(ctx, c, res, row, state.UID, err)
	case now.Replicas != state.Replicas:
		return &conflictError{why: fmt.Sprintf("conflict: replicas changed since the dialog (%d then, %d now)", state.Replicas, now.Replicas)}
	}
	return &conflictError{why: fmt.Sprintf("conflict: it changed since the dialog (replicas still %d)", now.Replicas)}
}

// confirmRestart asks before restarting row's pods.
func (v *Verbs) confirmRestart(res discovery.Resource, row *watch.Row) {
	if !needUID(v, "restarting", res.Name+" "+row.Key, row) {
		return
	}
	question := fmt.Sprintf("Restart %s %s?\nits pods are replaced, as kubectl rollout restart does", res.Name, row.Name)
	v.Confirm(question+namespaceLine(row), "Restart", func() {
		what := fmt.Sprintf("%s %s", res.Name, row.Key)
		at := v.Clock().Now()
		v.send("restarting "+what, "restarted "+what+": rollout started", func(ctx context.Context, c cluster.Interface) error {
			err := c.Restart(ctx, res.GVR(), row.Namespace, row.Name, at, cluster.Precondition{UID: row.UID})
			return explainConflict(ctx, c, res, row, row.UID, err)
		})
	})
}

func namespaceLine(row *watch.Row) string {
	if row.Namespace == "" {
		return ""
	}
	return "\nnamespace: " + row.Namespace
}

// send runs one write off the UI goroutine, saying doing meanwhile and done after, or why it failed. Unlike
// request, it reports even after a context switch: the write was sent, the user must hear how it ended.
func (v *Verbs) send(doing, done string, write func(ctx context.Context, c cluster.Interface) error) {
	v.Message(doing + " …")
	conn := v.Cluster() // the UI goroutine's (a context switch replaces it)
	v.Go(func() {
		ctx, cancel := context.WithTimeout(v.Context(), RequestTimeout)
		defer cancel()
		err := write(ctx, conn)
		v.Update(func() {
			if err != nil {
				v.Errorf("%s", failedWrite(doing, err))
				return
			}
			v.Message(done)
		})
	})
}
