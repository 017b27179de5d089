package ui

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// maskedValue replaces each Secret value unless the user reveals them.
const maskedValue = "********"

// lastAppliedAnnotation is where `kubectl apply` records the applied object.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// renderYAML returns obj as YAML. managedFields are dropped unless showManaged; a core/v1 Secret's data and
// stringData values, and its last-applied-configuration annotation, are masked unless reveal. obj is not
// modified.
func renderYAML(obj *unstructured.Unstructured, showManaged, reveal bool) (string, error) {
	o := obj.DeepCopy()
	if !showManaged {
		unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	}
	if !reveal && o.GetKind() == "Secret" && o.GetAPIVersion() == "v1" {
		for _, field := range []string{"data", "stringData"} {
			values, ok := o.Object[field].(map[string]any)
			if !ok {
				continue
			}
			for k := range values {
				values[k] = maskedValue
			}
		}
		// `kubectl apply` keeps a copy of the applied Secret, data and all, in this annotation.
		if ann := o.GetAnnotations(); ann[lastAppliedAnnotation] != "" {
			ann[lastAppliedAnnotation] = maskedValue
			o.SetAnnotations(ann)
		}
	}
	out, err := yaml.Marshal(o.Object)
	if err != nil {
		return "", fmt.Errorf("yaml of %s: %w", obj.GetName(), err)
	}
	return string(out), nil
}

// yamlKey matches a YAML mapping key at the start of a line (after indentation and a list dash).
var yamlKey = regexp.MustCompile(`^(\s*(?:- )?)([^:\s][^:]*):(\s|$)`)

// markupYAML escapes text for a tview TextView, colours mapping keys and wraps every case-insensitive
// occurrence of search in a region "m<i>" (highlighted in yellow). It returns the markup and the number of
// matches.
func markupYAML(text, search string) (string, int) {
	var b strings.Builder
	matches := 0
	lower := strings.ToLower(search)
	for _, line := range strings.SplitAfter(text, "\n") {
		if search != "" && len(strings.ToLower(line)) == len(line) && strings.Contains(strings.ToLower(line), lower) {
			b.WriteString(markMatches(line, lower, &matches))
			continue
		}
		if m := yamlKey.FindStringSubmatchIndex(line); m != nil {
			b.WriteString(tview.Escape(line[:m[4]]))
			b.WriteString("[steelblue]" + tview.Escape(line[m[4]:m[5]]) + "[-]")
			b.WriteString(tview.Escape(line[m[5]:]))
			continue
		}
		b.WriteString(tview.Escape(line))
	}
	return b.String(), matches
}

// markMatches wraps each occurrence of lower (already lower-case) in line in a numbered region.
func markMatches(line, lower string, n *int) string {
	var b strings.Builder
	ll := strings.ToLower(line)
	for {
		i := strings.Index(ll, lower)
		if i < 0 || len(lower) == 0 {
			b.WriteString(tview.Escape(line))
			return b.String()
		}
		b.WriteString(tview.Escape(line[:i]))
		fmt.Fprintf(&b, `["m%d"][black:yellow]%s[-:-][""]`, *n, tview.Escape(line[i:i+len(lower)]))
		*n++
		line, ll = line[i+len(lower):], ll[i+len(lower):]
	}
}
