package verbs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

var labelVerb = verb{key: keymap.Keys.Object.Labels, need: accessNeed{verb: "patch"},
	applies: hasVerbs("labelled", "patch"), start: (*Verbs).startLabels}

// metaFields are what the labels key changes: the object's labels or its annotations.
var metaFields = []string{"labels", "annotations"}

// startLabels asks which of row's labels or annotations to change, reads them, asks the changes
// (KEY=VALUE sets, KEY- removes, as kubectl label does), then confirms them; the patch carries row's UID.
func (v *Verbs) startLabels(res discovery.Resource, row *watch.Row) {
	what := res.Name + " " + row.Key
	if !needUID(v, "labelling", what, row) {
		return
	}
	v.Choose("change which of "+row.Name, metaFields, 0, func(i int) {
		field := metaFields[i]
		request(v, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
			return c.Get(ctx, res.GVR(), row.Namespace, row.Name)
		}, func(obj *unstructured.Unstructured, err error) {
			if err == nil && obj.GetUID() != row.UID {
				err = &conflictError{why: reCreated}
			}
			if err != nil {
				v.Errorf("not changing the %s of %s: %s", field, what, err)
				return
			}
			current := obj.GetLabels()
			if field == "annotations" {
				current = obj.GetAnnotations()
			}
			v.askLabels(res, row, field, current)
		})
	})
}

// askLabels asks the changes to field (whose values are now current), then confirms them.
func (v *Verbs) askLabels(res discovery.Resource, row *watch.Row, field string, current map[string]string) {
	label := fmt.Sprintf("%s of %s %s %s (KEY=VALUE sets, KEY- removes): ", field, res.Name, row.Name, shownPairs(current, 60))
	v.Ask(label, "", func(text string) {
		changes, err := parseMetaChanges(field, text)
		if err == nil {
			err = checkRemovals(field, changes, current)
		}
		if err != nil {
			v.Errorf("%s", err.Error())
			return
		}
		lines := describeMetaChanges(changes, current)
		if len(lines) == 0 {
			v.Message("the " + field + " of " + row.Name + " are so already: nothing to do")
			return
		}
		question := fmt.Sprintf("Change the %s of %s %s?\n%s", field, res.Name, row.Name, strings.Join(lines, "\n"))
		v.Confirm(question+namespaceLine(row), "Change", func() {
			what := fmt.Sprintf("the %s of %s %s", field, res.Name, row.Key)
			v.send("changing "+what, "changed "+what, func(ctx context.Context, c cluster.Interface) error {
				pre := cluster.Precondition{UID: row.UID}
				return explainConflict(ctx, c, res, row, row.UID, c.Label(ctx, res.GVR(), row.Namespace, row.Name, field, changes, pre))
			})
		})
	})
}

// parseMetaChanges reads kubectl label's arguments: KEY=VALUE sets (a value may be quoted "…" to hold
// spaces), KEY- removes; keys must be qualified names, label values valid label values.
func parseMetaChanges(field, text string) (map[string]*string, error) {
	tokens, err := splitQuoted(text)
	if err != nil {
		return nil, err
	}
	if len(tokens) == 0 {
		return nil, fmt.Errorf("no change given (KEY=VALUE sets, KEY- removes)")
	}
	changes := map[string]*string{}
	for _, tok := range tokens {
		key, value, set := strings.Cut(tok, "=")
		if !set {
			if !strings.HasSuffix(tok, "-") {
				return nil, fmt.Errorf("%q: KEY=VALUE sets, KEY- removes", tok)
			}
			key = strings.TrimSuffix(tok, "-")
		}
		if errs := validation.IsQualifiedName(key); len(errs) > 0 {
			return nil, fmt.Errorf("%q is not a valid key: %s", key, errs[0])
		}
		if set && field == "labels" {
			if errs := validation.IsValidLabelValue(value); len(errs) > 0 {
				return nil, fmt.Errorf("%q is not a valid label value: %s", value, errs[0])
			}
		}
		if _, twice := changes[key]; twice {
			return nil, fmt.Errorf("%s is changed twice", key)
		}
		changes[key] = nil
		if set {
			changes[key] = &value
		}
	}
	return changes, nil
}

// splitQuoted splits text at spaces, but not inside double quotes, which it removes.
func splitQuoted(text string) ([]string, error) {
	var out []string
	var b strings.Builder
	quoted, inToken := false, false
	for _, r := range text {
		switch {
		case r == '"':
			quoted, inToken = !quoted, true
		case !quoted && (r == ' ' || r == '\t'):
			if inToken {
				out, inToken = append(out, b.String()), false
				b.Reset()
			}
		default:
			b.WriteRune(r)
			inToken = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("a quote is not closed: %s", text)
	}
	if inToken {
		out = append(out, b.String())
	}
	return out, nil
}

// checkRemovals refuses the removal of a key field does not have (kubectl label says so too).
func checkRemovals(field string, changes map[string]*string, current map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(changes)) {
		if _, ok := current[k]; changes[k] == nil && !ok {
			return fmt.Errorf("there is no %s %s to remove", strings.TrimSuffix(field, "s"), k)
		}
	}
	return nil
}

// describeMetaChanges lists what changes would do to current, sorted by key: "+ k=v", "~ k: old → new",
// "- k (was v)"; a key set to its value already is left out. With current nil (several objects), a set is
// "+ k=v" and a removal "- k".
func describeMetaChanges(changes map[string]*string, current map[string]string) []string {
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(changes)) {
		old, had := current[k]
		switch v := changes[k]; {
		case v == nil && current == nil: // (several objects: their values are not shown)
			lines = append(lines, "- "+k)
		case v == nil:
			lines = append(lines, fmt.Sprintf("- %s (was %s)", k, old))
		case !had:
			lines = append(lines, fmt.Sprintf("+ %s=%s", k, *v))
		case *v != old:
			lines = append(lines, fmt.Sprintf("~ %s: %s → %s", k, old, *v))
		}
	}
	return lines
}

// shownPairs is m as "[k=v, …]", cut to about width characters ("[]" when empty).
func shownPairs(m map[string]string, width int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	s := strings.Join(parts, ", ")
	if r := []rune(s); len(r) > width {
		s = string(r[:width]) + "…"
	}
	return "[" + s + "]"
}
