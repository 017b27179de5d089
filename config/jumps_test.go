package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// jumpSummary is a rule as one line: source → target [labels|fields|namespace].
func jumpSummary(j Jump) string {
	return j.Name() + " → " + GVRText(j.Target) + " [" + j.LabelSelector.String() + "|" + j.FieldSelector.String() +
		"|" + j.TargetNamespace.String() + "]"
}

func jumpSummaries(js []Jump) []string {
	out := make([]string, len(js))
	for i, j := range js {
		out[i] = jumpSummary(j)
	}
	return out
}

// TestJumpsK9sAndKScope: k9s's jumps.yaml and kscope's are both read; kscope's rule for a source replaces
// k9s's, even a rule that cannot be used (that source then has none, and the problem names kscope's file
// and the rule); k9s's other rules stay.
func TestJumpsK9sAndKScope(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	if js, f, err := LoadJumps(d); err != nil || len(js) != 0 || f.From != "" || f.Path != filepath.Join(d.KScope, "jumps.yaml") {
		t.Fatalf("no files: %v %+v %v", js, f, err)
	}
	write(t, d.K9s, "jumps.yaml", `jumps:
  "myoperator.io/v1/patchplans":
    targetGVR: "myoperator.io/v1/patchjobs"
    labelSelector: "app={{.metadata.name}}"
    fieldSelector: "spec.patchPlanRef={{ .metadata.name }}"
    targetNamespace: ""
  apps/v1/deployments:
    targetGVR: v1/pods
    labelSelector: "app={{.metadata.labels.app}}"
  v1/nodes:
    targetGVR: v1/pods
    fieldSelector: spec.nodeName={{.metadata.name}}
    targetNamespace: all
`)
	js, f, err := LoadJumps(d)
	want := []string{
		"apps/v1/deployments → v1/pods [app={{.metadata.labels.app}}||]",
		"myoperator.io/v1/patchplans → myoperator.io/v1/patchjobs [app={{.metadata.name}}|spec.patchPlanRef={{ .metadata.name }}|]",
		"v1/nodes → v1/pods [|spec.nodeName={{.metadata.name}}|all]",
	}
	if err != nil || f.From != "k9s" || !reflect.DeepEqual(jumpSummaries(js), want) {
		t.Fatalf("k9s's file: %q %+v %v\nwant %q", jumpSummaries(js), f, err, want)
	}
	if js[1].Source != (schema.GroupVersionResource{Group: "myoperator.io", Version: "v1", Resource: "patchplans"}) ||
		js[2].Target != (schema.GroupVersionResource{Version: "v1", Resource: "pods"}) || js[0].File != filepath.Join(d.K9s, "jumps.yaml") {
		t.Errorf("parsed %+v", js)
	}

	write(t, d.KScope, "jumps.yaml", `jumps:
  apps/v1/deployments:
    targetGVR: apps/v1/replicasets
    labelSelector: "app={{.metadata.name}}"
    targetNamespace: "team-{{.metadata.labels.team}}"
  v1/nodes:
    targetGVR: v1/pods
`)
	js, f, err = LoadJumps(d)
	want = []string{
		"apps/v1/deployments → apps/v1/replicasets [app={{.metadata.name}}||team-{{.metadata.labels.team}}]",
		"myoperator.io/v1/patchplans → myoperator.io/v1/patchjobs [app={{.metadata.name}}|spec.patchPlanRef={{ .metadata.name }}|]",
	}
	wantErr := filepath.Join(d.KScope, "jumps.yaml") + `: jump "v1/nodes": needs a labelSelector or a fieldSelector`
	if err == nil || err.Error() != wantErr || f.From != "both" || f.Path != filepath.Join(d.KScope, "jumps.yaml") ||
		!reflect.DeepEqual(jumpSummaries(js), want) {
		t.Fatalf("both files: %q %+v %v\nwant %q and %s", jumpSummaries(js), f, err, want, wantErr)
	}
	if js[0].File != filepath.Join(d.KScope, "jumps.yaml") {
		t.Errorf("kscope's rule from %s", js[0].File)
	}
}

// TestJumpsBadRules: each form kscope cannot use is one problem naming the file and the rule, on one line;
// the file's good rule is read anyway. A file that cannot be parsed is one problem naming its line.
func TestJumpsBadRules(t *testing.T) {
	good := "  v1/services:\n    targetGVR: v1/pods\n    labelSelector: app={{.metadata.name}}\n"
	tests := []struct {
		name, rule, want string
	}{
		{"no target", "  v1/pods:\n    labelSelector: a=b\n", `jump "v1/pods": needs a targetGVR`},
		{"target one word", "  v1/pods:\n    targetGVR: pods\n    labelSelector: a=b\n",
			`jump "v1/pods": targetGVR "pods" is not GROUP/VERSION/RESOURCE (VERSION/RESOURCE for the core group)`},
		{"target without version", "  v1/pods:\n    targetGVR: apps/deployments\n    labelSelector: a=b\n",
			`jump "v1/pods": targetGVR "apps/deployments": VERSION/RESOURCE is the core group's, whose version is v1`},
		{"target four parts", "  v1/pods:\n    targetGVR: a/b/c/d\n    labelSelector: a=b\n", `targetGVR "a/b/c/d" is not GROUP/VERSION/RESOURCE`},
		{"target upper case", "  v1/pods:\n    targetGVR: apps/v1/Deployments\n    labelSelector: a=b\n",
			`targetGVR "apps/v1/Deployments" is not GROUP/VERSION/RESOURCE: a group is a DNS name`},
		{"source one word", "  pods:\n    targetGVR: v1/pods\n    labelSelector: a=b\n", `jump "pods": "pods" is not GROUP/VERSION/RESOURCE`},
		{"no selector", "  v1/pods:\n    targetGVR: v1/pods\n    targetNamespace: all\n", `jump "v1/pods": needs a labelSelector or a fieldSelector`},
		{"pipe", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: 'a={{ .metadata.name | upper }}'\n",
			`jump "v1/pods": labelSelector "a={{ .metadata.name | upper }}": {{.metadata.name | upper}} is not a field reference such as {{.metadata.name}}`},
		{"function", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: 'a={{index .metadata.labels \"x\"}}'\n", `is not a field reference`},
		{"root", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: 'a={{.}}'\n", `{{.}} is not a field reference`},
		{"unclosed", "  v1/pods:\n    targetGVR: v1/pods\n    fieldSelector: 'a={{.metadata.name'\n", `fieldSelector "a={{.metadata.name": {{ without }}`},
		{"stray close", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: 'a=b}}'\n", `labelSelector "a=b}}": }} without {{`},
		{"field selector without key", "  v1/pods:\n    targetGVR: v1/pods\n    fieldSelector: '{{.metadata.name}}'\n",
			`jump "v1/pods": fieldSelector "{{.metadata.name}}" cannot be a selector (read with each reference as x: invalid selector`},
		{"label selector unparsable", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: 'app in'\n", `jump "v1/pods": labelSelector "app in":`},
		{"namespace not a name", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: a=b\n    targetNamespace: Team_A\n",
			`jump "v1/pods": targetNamespace "Team_A": not a namespace name`},
		{"unknown field", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelectors: a=b\n", `jump "v1/pods": unknown field "labelSelectors"`},
		{"wrong type", "  v1/pods:\n    targetGVR: v1/pods\n    labelSelector: [a]\n", `jump "v1/pods": labelSelector: want a string, not array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "jumps.yaml", "jumps:\n"+good+tt.rule)
			js, _, err := LoadJumps(Dirs{KScope: dir})
			ps, ok := err.(Problems)
			if !ok || len(ps) != 1 || ps[0].Path != filepath.Join(dir, "jumps.yaml") || !strings.Contains(ps[0].Text, tt.want) ||
				strings.Contains(ps[0].Text, "\n") {
				t.Errorf("problems %v, want one with %q", err, tt.want)
			}
			if got := jumpSummaries(js); !reflect.DeepEqual(got, []string{"v1/services → v1/pods [app={{.metadata.name}}||]"}) {
				t.Errorf("rules %q, want the good one", got)
			}
		})
	}

	dir := t.TempDir()
	write(t, dir, "jumps.yaml", "jumps:\n  v1/pods:\n   bad: [\n")
	if _, _, err := LoadJumps(Dirs{KScope: dir}); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "jumps.yaml")+": line 3:") {
		t.Errorf("broken file: %v", err)
	}
}

// TestJumpSelect: a rule's templates resolved over an object: values into a label selector are refused
// unless they are label values, values into a field selector escaped, the namespace checked; a missing
// field is one line naming it and the object.
func TestJumpSelect(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "w1", "namespace": "shop", "labels": map[string]any{"team": "blue"}},
		"spec": map[string]any{"comma": "a,b", "space": "a b", "equals": "x=y", "replicas": int64(3), "empty": "",
			"ns": "data", "badNS": "Data Two", "tree": map[string]any{"a": "b"}},
	}
	clusterScoped := map[string]any{"metadata": map[string]any{"name": "n1"}}
	rule := func(labels, fields, ns string) Jump {
		t.Helper()
		j := Jump{Target: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}}
		var err error
		for _, x := range []struct {
			text string
			into *Template
		}{{labels, &j.LabelSelector}, {fields, &j.FieldSelector}, {ns, &j.TargetNamespace}} {
			if *x.into, err = ParseTemplate(x.text); err != nil {
				t.Fatal(err)
			}
		}
		return j
	}
	tests := []struct {
		name    string
		rule    Jump
		obj     map[string]any
		want    JumpSelection
		wantErr string
	}{
		{"name and label", rule("widget={{.metadata.name}},team={{ .metadata.labels.team }}", "", ""), obj,
			JumpSelection{LabelSelector: "team=blue,widget=w1", Namespace: "shop"}, ""},
		{"number", rule("replicas={{.spec.replicas}}", "", "all"), obj, JumpSelection{LabelSelector: "replicas=3"}, ""},
		{"label value with a comma", rule("x={{.spec.comma}}", "", ""), obj, JumpSelection{},
			`.spec.comma of widget w1 is "a,b": not a label value`},
		{"label value with a space", rule("x={{.spec.space}}", "", ""), obj, JumpSelection{},
			`.spec.space of widget w1 is "a b": not a label value`},
		{"field value with a comma", rule("", "spec.ref={{.spec.comma}}", ""), obj,
			JumpSelection{FieldSelector: `spec.ref=a\,b`, Namespace: "shop"}, ""},
		{"field value with =", rule("", "spec.ref={{.spec.equals}}", ""), obj,
			JumpSelection{FieldSelector: `spec.ref=x\=y`, Namespace: "shop"}, ""},
		{"missing field", rule("x={{.spec.foo}}", "", ""), obj, JumpSelection{}, ".spec.foo not set on widget w1"},
		{"missing below a value", rule("x={{.spec.ns.foo}}", "", ""), obj, JumpSelection{}, ".spec.ns.foo not set on widget w1"},
		{"mapping", rule("x={{.spec.tree}}", "", ""), obj, JumpSelection{}, ".spec.tree of widget w1 is a mapping, not a single value"},
		{"selects everything", rule("{{.spec.empty}}", "", ""), obj, JumpSelection{}, "its selectors pick every object of v1/configmaps"},
		{"namespace template", rule("a=b", "", "{{.spec.ns}}"), obj, JumpSelection{LabelSelector: "a=b", Namespace: "data"}, ""},
		{"namespace refused", rule("a=b", "", "{{.spec.badNS}}"), obj, JumpSelection{}, `targetNamespace "Data Two": not a namespace name`},
		{"namespace missing", rule("a=b", "", "{{.spec.nope}}"), obj, JumpSelection{}, ".spec.nope not set on widget w1"},
		{"cluster-scoped source", rule("", "spec.nodeName={{.metadata.name}}", ""), clusterScoped,
			JumpSelection{FieldSelector: "spec.nodeName=n1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.rule.Select(tt.obj, "widget w1")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %+v, %v; want error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

// TestParseTemplate: literal text and references; nothing else in braces.
func TestParseTemplate(t *testing.T) {
	tests := []struct {
		text     string
		wantRefs []string
		wantErr  string
	}{
		{"plain", nil, ""},
		{"a={{.metadata.name}},b={{ .spec.x-y.z_1 }}", []string{".metadata.name", ".spec.x-y.z_1"}, ""},
		{"{{.a}}{{.b}}", []string{".a", ".b"}, ""},
		{"{{ printf \"%s\" .a }}", nil, "is not a field reference"},
		{"{{.a.}}", nil, "is not a field reference"},
		{"{{$x := .a}}", nil, "is not a field reference"},
		{"{{- .a -}}", nil, "is not a field reference"},
		{"{{.a", nil, "{{ without }}"},
		{"x}}", nil, "}} without {{"},
	}
	for _, tt := range tests {
		got, err := ParseTemplate(tt.text)
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: %v, want error %q", tt.text, err, tt.wantErr)
		case tt.wantErr == "" && (err != nil || !reflect.DeepEqual(got.Refs(), tt.wantRefs) || got.String() != tt.text):
			t.Errorf("%q: refs %q, %v; want %q", tt.text, got.Refs(), err, tt.wantRefs)
		}
	}
}
