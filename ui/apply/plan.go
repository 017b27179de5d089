package apply

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/history"
)

// diffContext is how many unchanged lines the diff shows around each change; longer runs are folded.
const diffContext = 3

// State is what the dry run says the apply would do to an object.
type State int

const (
	// Create: the object does not exist; the apply would create it.
	Create State = iota
	// Change: the apply would change the object.
	Change
	// Unchanged: the apply would leave the object as it is (managedFields aside).
	Unchanged
	// Conflict: the server refused the apply, fields of it being owned by other managers (Conflicts).
	Conflict
)

// Result is the dry run of one item: what the apply would do, the live object (nil: none) and the dry run's
// result, their diff, and the conflicts when the server refused it.
type Result struct {
	Item
	State     State
	Live      *unstructured.Unstructured
	DryRun    *unstructured.Unstructured
	Diff      []history.FoldedLine
	Conflicts []apierr.FieldConflict
}

// Plan dry-runs the apply of items, in order, on c: each object is read (none yet: a create), the user's
// right to it asked (patch, or create; an unanswered question lets the server decide), then its apply sent
// with dryRun=All (force as asked). A refusal of the access, or an error other than a field conflict,
// ends the plan with an error naming the object: nothing is to be applied then.
func Plan(ctx context.Context, c cluster.Interface, items []Item, force bool) ([]Result, error) {
	out := make([]Result, 0, len(items))
	for _, it := range items {
		r, err := planOne(ctx, c, it, force)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", it.What(), err)
		}
		out = append(out, r)
	}
	return out, nil
}

func planOne(ctx context.Context, c cluster.Interface, it Item, force bool) (Result, error) {
	r := Result{Item: it}
	ns, name := it.Obj.GetNamespace(), it.Obj.GetName()
	live, err := c.Get(ctx, it.GVR, ns, name)
	switch {
	case apierrors.IsNotFound(err):
		live = nil
	case err != nil:
		return r, err
	}
	r.Live = live
	q := cluster.AccessQuery{Verb: "patch", GVR: it.GVR, Namespace: ns, Name: name}
	if live == nil {
		q.Verb, q.Name = "create", ""
	}
	if ans, err := c.Can(ctx, q); err == nil && !ans.Allowed {
		why := ""
		if ans.Reason != "" {
			why = " (" + apierr.OneLine(ans.Reason) + ")"
		}
		return r, fmt.Errorf("not permitted: you may not %s it%s", q.Verb, why)
	}
	out, err := c.Apply(ctx, it.GVR, ns, it.Obj, cluster.ApplyOptions{DryRun: true, Force: force})
	if conflicts := apierr.FieldConflicts(err); len(conflicts) > 0 {
		r.State, r.Conflicts = Conflict, conflicts
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("dry run: %w", err)
	}
	r.DryRun = out
	before, after, err := diffTexts(live, out)
	if err != nil {
		return r, err
	}
	switch {
	case live == nil:
		r.State = Create
	case before == after:
		r.State = Unchanged
	default:
		r.State = Change
	}
	r.Diff = history.FoldDiff(history.DiffLines(history.TextLines(before), history.TextLines(after)), diffContext)
	return r, nil
}

// diffTexts are the YAML texts kubectl diff compares: the live object and the dry run's, each without
// metadata.managedFields, generation and resourceVersion; a Secret's values masked ("***", "*** (before)"
// and "*** (after)" where they differ, as kubectl diff masks them). A nil live object is "".
func diffTexts(live, dry *unstructured.Unstructured) (before, after string, err error) {
	l, d := comparable(live), comparable(dry)
	if dry.GetKind() == "Secret" && dry.GroupVersionKind().Group == "" {
		maskSecret(l, d)
	}
	if l != nil {
		if before, err = yamlText(l); err != nil {
			return "", "", err
		}
	}
	after, err = yamlText(d)
	return before, after, err
}

// comparable is a copy of obj without what kubectl diff leaves out (nil for nil).
func comparable(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	o := obj.DeepCopy()
	for _, f := range []string{"managedFields", "generation", "resourceVersion"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	return o
}

func yamlText(obj *unstructured.Unstructured) (string, error) {
	out, err := yaml.Marshal(obj.Object)
	if err != nil {
		return "", fmt.Errorf("yaml of %s: %w", obj.GetName(), err)
	}
	return string(out), nil
}

// maskSecret replaces the values of data and stringData in the two versions of a Secret (either may be
// nil) by "***", marked "(before)" and "(after)" where they differ.
func maskSecret(before, after *unstructured.Unstructured) {
	for _, field := range []string{"data", "stringData"} {
		b, a := secretValues(before, field), secretValues(after, field)
		bm, am := map[string]any{}, map[string]any{}
		for k, v := range b {
			bm[k] = "***"
			if av, ok := a[k]; ok && !reflect.DeepEqual(av, v) {
				bm[k], am[k] = "*** (before)", "*** (after)"
			}
		}
		for k := range a {
			if _, ok := am[k]; !ok {
				am[k] = "***"
			}
		}
		if b != nil {
			before.Object[field] = bm
		}
		if a != nil {
			after.Object[field] = am
		}
	}
}

// secretValues is obj's map at field (nil when obj or the map is missing), to mask in place.
func secretValues(obj *unstructured.Unstructured, field string) map[string]any {
	if obj == nil {
		return nil
	}
	m, _ := obj.Object[field].(map[string]any)
	return m
}

// Managers are the managers named by rs's conflicts, sorted, each once.
func Managers(rs []Result) []string {
	var out []string
	for _, r := range rs {
		for _, c := range r.Conflicts {
			out = append(out, c.Manager)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Count is how many of rs are in state s.
func Count(rs []Result, s State) int {
	n := 0
	for _, r := range rs {
		if r.State == s {
			n++
		}
	}
	return n
}

// isConflict tells whether err is a 409 Conflict.
func isConflict(err error) bool { return apierrors.IsConflict(err) }
