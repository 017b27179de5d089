package rollouts

import (
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"kscope/cluster"
	"kscope/history"
	"kscope/watch"
)

// cells are the table cells of r at now: REVISION (the current one marked), CHANGE-CAUSE, AGE, IMAGES.
func cells(r cluster.Revision, now time.Time) []string {
	rev := strconv.FormatInt(r.Number, 10)
	if r.Current {
		rev += " (current)"
	}
	age := ""
	if !r.Created.IsZero() {
		age = watch.FormatAge(now.Sub(r.Created))
	}
	return []string{rev, r.ChangeCause, age, strings.Join(images(r.Template), ",")}
}

// images lists the images of a pod template's containers, init containers first.
func images(template map[string]any) []string {
	var out []string
	for _, list := range []string{"initContainers", "containers"} {
		cs, _, _ := unstructured.NestedSlice(template, "spec", list)
		for _, c := range cs {
			if m, ok := c.(map[string]any); ok {
				if image, ok := m["image"].(string); ok {
					out = append(out, image)
				}
			}
		}
	}
	return out
}

// current returns the current revision among revs, if one is marked.
func current(revs []cluster.Revision) (cluster.Revision, bool) {
	for _, r := range revs {
		if r.Current {
			return r, true
		}
	}
	return cluster.Revision{}, false
}

// templateDiff is the line diff of pod template from (YAML) to to, unchanged runs folded to context lines.
func templateDiff(from, to map[string]any, context int) ([]history.FoldedLine, error) {
	a, err := yaml.Marshal(from)
	if err != nil {
		return nil, err
	}
	b, err := yaml.Marshal(to)
	if err != nil {
		return nil, err
	}
	return history.FoldDiff(history.DiffLines(history.TextLines(string(a)), history.TextLines(string(b))), context), nil
}
