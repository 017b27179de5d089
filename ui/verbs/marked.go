package verbs

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// Target is one object a verb acts on: a marked row and its resource (the row's own kind in a table of
// several kinds).
type Target struct {
	Res discovery.Resource
	Row *watch.Row
}

// MarkedFunc returns the marked rows the verbs that act on several objects (delete, kill, scale, restart)
// act on instead of the subject; none: they act on the subject.
type MarkedFunc func() []Target

// manyVerb is how a verb acts on several objects: the words of its question and outcome, whether it asks for
// a replica count or label changes first, and its write on one target (p: what was asked).
type manyVerb struct {
	action, doing, done string // "Delete", "deleting", "deleted"
	note                string // the question's line after the first ("" for none)
	askCount, askLabels bool
	write               func(ctx context.Context, c cluster.Interface, t Target, p manyParam, v *Verbs) error
}

// manyParam is what a verb on several objects asked once for all of them: a replica count (scale), or the
// field and changes of labels (labels or annotations). A plain value.
type manyParam struct {
	n       int32
	field   string
	changes map[string]*string
}

// many is vb's way of acting on several objects; false for a verb that acts on one object only.
func many(vb verb) (manyVerb, bool) {
	switch vb.key.Name {
	case deleteVerb.key.Name:
		return manyVerb{action: "Delete", doing: "deleting", done: "deleted", write: deleteOne}, true
	case killVerb.key.Name:
		return manyVerb{action: "Kill", doing: "killing", done: "killed", write: killOne,
			note: "they are deleted at once (grace period 0): their containers get no time to stop"}, true
	case restartVerb.key.Name:
		return manyVerb{action: "Restart", doing: "restarting", done: "restarted", write: restartOne,
			note: "their pods are replaced, as kubectl rollout restart does"}, true
	case scaleVerb.key.Name:
		return manyVerb{action: "Scale", doing: "scaling", done: "scaled", write: scaleOne, askCount: true}, true
	case labelVerb.key.Name:
		return manyVerb{action: "Change", doing: "changing", done: "changed", write: labelOne, askLabels: true}, true
	}
	return manyVerb{}, false
}

func deleteOne(ctx context.Context, c cluster.Interface, t Target, _ manyParam, _ *Verbs) error {
	row := t.Row
	return explainConflict(ctx, c, t.Res, row, row.UID, c.Delete(ctx, t.Res.GVR(), row.Namespace, row.Name, row.UID))
}

func killOne(ctx context.Context, c cluster.Interface, t Target, _ manyParam, _ *Verbs) error {
	row := t.Row
	return explainConflict(ctx, c, t.Res, row, row.UID, c.Kill(ctx, row.Namespace, row.Name, row.UID))
}

func restartOne(ctx context.Context, c cluster.Interface, t Target, _ manyParam, v *Verbs) error {
	row := t.Row
	err := c.Restart(ctx, t.Res.GVR(), row.Namespace, row.Name, v.Clock().Now(), cluster.Precondition{UID: row.UID})
	return explainConflict(ctx, c, t.Res, row, row.UID, err)
}

// scaleOne reads the target's scale (refused if it is no longer the object marked), then scales it to n
// under that read's precondition.
func scaleOne(ctx context.Context, c cluster.Interface, t Target, p manyParam, _ *Verbs) error {
	n := p.n
	res, row := t.Res, t.Row
	state, err := c.Replicas(ctx, res.GVR(), row.Namespace, row.Name)
	if err != nil {
		return explainConflict(ctx, c, res, row, row.UID, err)
	}
	if state.UID != "" && state.UID != row.UID {
		return &conflictError{why: reCreated}
	}
	if state.UID == "" {
		state.UID = row.UID
	}
	err = c.Scale(ctx, res.GVR(), row.Namespace, row.Name, n, state.Precondition)
	if apierrors.IsConflict(err) {
		return scaleConflict(ctx, c, res, row, state, err)
	}
	return explainConflict(ctx, c, res, row, state.UID, err)
}

// labelOne applies p's label changes to the target, with its UID.
func labelOne(ctx context.Context, c cluster.Interface, t Target, p manyParam, _ *Verbs) error {
	row := t.Row
	err := c.Label(ctx, t.Res.GVR(), row.Namespace, row.Name, p.field, p.changes, cluster.Precondition{UID: row.UID})
	return explainConflict(ctx, c, t.Res, row, row.UID, err)
}

// runMarked runs vb on the targets: read-only mode refuses it; each target's own precondition (the verb
// applies to its resource, its UID is known) and access (asked once per resource and namespace) are checked;
// then one question (Cancel focused) lists them, the writes go out each with its target's UID, and one line
// says how many succeeded and which failed, and why.
func (v *Verbs) runMarked(vb verb, mv manyVerb, access *Access, targets []Target) {
	what := fmt.Sprintf("%s %d %s", vb.key.Name, len(targets), noun(targets))
	if v.ReadOnly() {
		v.Errorf("read-only mode: refusing to %s", what)
		return
	}
	b := &batch{v: v, mv: mv, total: len(targets), noun: noun(targets)}
	var checked []Target
	for _, t := range targets {
		switch err := vb.applies(t.Res); {
		case err != nil:
			b.fail(t, err.Error())
		case t.Row.UID == "":
			b.fail(t, "its UID is still being read")
		default:
			checked = append(checked, t)
		}
	}
	v.permittedEach(access, vb.need, checked, func(allowed []Target, denied map[int]string) {
		for i, why := range denied {
			b.fail(checked[i], why)
		}
		b.targets = allowed
		if len(allowed) == 0 {
			v.Errorf("%s", b.outcome())
			return
		}
		if mv.askLabels {
			v.askMarkedLabels(b)
			return
		}
		if !mv.askCount {
			b.confirm(manyParam{})
			return
		}
		v.Ask(fmt.Sprintf("scale %d %s to: ", len(allowed), b.noun), "", func(text string) {
			n, err := parseReplicas(text)
			if err != nil {
				v.Errorf("%s", err.Error())
				return
			}
			b.confirm(manyParam{n: n})
		})
	})
}

// askMarkedLabels asks which of the targets' labels or annotations, then the changes (kubectl label's
// arguments), then confirms them for every target of b.
func (v *Verbs) askMarkedLabels(b *batch) {
	v.Choose(fmt.Sprintf("change which of %d %s", len(b.targets), b.noun), metaFields, 0, func(i int) {
		field := metaFields[i]
		v.Ask(fmt.Sprintf("%s of %d %s (KEY=VALUE sets, KEY- removes): ", field, len(b.targets), b.noun), "", func(text string) {
			changes, err := parseMetaChanges(field, text)
			if err != nil {
				v.Errorf("%s", err.Error())
				return
			}
			b.mv.action, b.mv.doing, b.mv.done = "Change the "+field+" of", "changing the "+field+" of", "changed the "+field+" of"
			b.confirm(manyParam{field: field, changes: changes})
		})
	})
}

// permittedEach asks access about need for each target (once per resource and namespace), then calls then
// with the targets allowed (a failed question lets the server decide, as permitted does) and why the others
// are not, by index into targets.
func (v *Verbs) permittedEach(access *Access, need accessNeed, targets []Target, then func([]Target, map[int]string)) {
	queries := map[cluster.AccessQuery][]int{}
	for i, t := range targets {
		q := need.query(t.Res, t.Row.Namespace)
		queries[q] = append(queries[q], i)
	}
	denied := map[int]string{}
	waiting := len(queries)
	finish := func() {
		var allowed []Target
		for i, t := range targets {
			if _, no := denied[i]; !no {
				allowed = append(allowed, t)
			}
		}
		then(allowed, denied)
	}
	if waiting == 0 {
		finish()
		return
	}
	for q, idx := range queries {
		access.ask(q, func(ans cluster.AccessAnswer, err error) {
			if err == nil && !ans.Allowed {
				for _, i := range idx {
					denied[i] = "not permitted" + reason(ans)
				}
			}
			if waiting--; waiting == 0 {
				finish()
			}
		})
	}
}

// noun names the targets: their resource ("pods"), or "objects" when they are of several kinds.
func noun(targets []Target) string {
	if len(targets) == 0 {
		return "objects"
	}
	for _, t := range targets[1:] {
		if t.Res.GVR() != targets[0].Res.GVR() {
			return "objects"
		}
	}
	return targets[0].Res.Name
}
