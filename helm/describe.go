package helm

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	rspb "helm.sh/helm/v4/pkg/release/v1"
	"sigs.k8s.io/yaml"
)

// Object is one object a release's manifest names. A plain value.
type Object struct {
	APIVersion, Kind, Namespace, Name string
}

// ManifestObjects are the objects of a rendered manifest, in its order: each YAML document's apiVersion, kind
// and name, its namespace (else ns, the release's). Documents that name no kind (empty, comments) are skipped;
// one that is not YAML is an error.
func ManifestObjects(manifest, ns string) ([]Object, error) {
	var out []Object
	for i, doc := range strings.Split("\n"+manifest, "\n---") {
		var m struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name, Namespace string
			} `json:"metadata"`
		}
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			return out, fmt.Errorf("manifest document %d: %w", i, err)
		}
		if m.Kind == "" {
			continue
		}
		if m.Metadata.Namespace == "" {
			m.Metadata.Namespace = ns
		}
		out = append(out, Object{APIVersion: m.APIVersion, Kind: m.Kind, Namespace: m.Metadata.Namespace, Name: m.Metadata.Name})
	}
	return out, nil
}

// Describe is rel as `kubectl describe` would print it, were a release an object: its name, revision,
// status, chart, times and description, the user's values, the objects its manifest names, its hooks and
// its notes.
func Describe(rel *rspb.Release) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 1, ' ', 0)
	sum := Summarize(rel)
	field := func(name, value string) { fmt.Fprintf(w, "%s:\t%s\n", name, value) }
	field("Name", rel.Name)
	field("Namespace", rel.Namespace)
	field("Revision", fmt.Sprint(rel.Version))
	field("Status", sum.Status)
	field("Description", sum.Description)
	field("Chart", sum.Chart)
	field("App Version", sum.AppVersion)
	if rel.Info != nil {
		field("First Deployed", when(rel.Info.FirstDeployed))
		field("Last Deployed", when(rel.Info.LastDeployed))
		if !rel.Info.Deleted.IsZero() {
			field("Deleted", when(rel.Info.Deleted))
		}
	}
	w.Flush()
	vals, err := Values(rel, false)
	switch {
	case err != nil:
		vals = "<" + err.Error() + ">\n"
	case vals == "":
		vals = "<none>\n"
	}
	b.WriteString("Values (user-supplied):\n" + indent(vals))
	b.WriteString("Resources:\n")
	objs, err := ManifestObjects(rel.Manifest, rel.Namespace)
	if len(objs) == 0 && err == nil {
		b.WriteString("  <none>\n")
	}
	w = tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
	for _, o := range objs {
		fmt.Fprintf(w, "  %s\t%s\t%s/%s\n", o.Kind, o.APIVersion, o.Namespace, o.Name)
	}
	w.Flush()
	if err != nil {
		fmt.Fprintf(&b, "  <%s>\n", err)
	}
	if len(rel.Hooks) > 0 {
		b.WriteString("Hooks:\n")
		w = tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
		for _, h := range rel.Hooks {
			events := make([]string, len(h.Events))
			for i, e := range h.Events {
				events[i] = string(e)
			}
			last := "never run"
			if !h.LastRun.CompletedAt.IsZero() || h.LastRun.Phase != "" {
				last = string(h.LastRun.Phase) + " " + when(h.LastRun.CompletedAt)
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", h.Kind, h.Name, strings.Join(events, ","), last)
		}
		w.Flush()
	}
	if rel.Info != nil && rel.Info.Notes != "" {
		b.WriteString("Notes:\n" + indent(rel.Info.Notes))
	}
	return b.String()
}

// when is a time as describe prints it ("<unknown>" when zero).
func when(t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return t.UTC().Format(time.RFC1123Z)
}

// indent indents every line of text by two spaces, ending it with a newline.
func indent(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return "  " + strings.Join(lines, "\n  ") + "\n"
}
