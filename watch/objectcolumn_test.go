package watch

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/kubectl/pkg/cmd/get"
)

// customColumnSpecs are columns as `-o custom-columns` takes them, each HEADER:JSONPATH.
var customColumnSpecs = []string{
	"NAME:.metadata.name",
	"NS:metadata.namespace",
	"IMAGE:.spec.containers[*].image",
	"FIRST:.spec.containers[0].image",
	"SECOND:{.spec.containers[1].name}",
	"NODE:.spec.nodeName",
	"TIER:.metadata.labels.fred\\.io/tier",
	"APP:.metadata.labels.app",
	"READY:.status.containerStatuses[*].ready",
	"RESTARTS:.status.containerStatuses[*].restartCount",
	"COND:.status.conditions[?(@.type==\"Ready\")].status",
	"PORTS:.spec.containers[*].ports[*].containerPort",
	"CPU:.spec.containers[*].resources.limits.cpu",
	"LIMITS:.spec.containers[0].resources.limits",
	"OWNER:.metadata.ownerReferences[0].name",
	"NAMES:.spec.containers[*]['name']",
	"ANYIMAGE:.spec.containers..image",
	"CREATED:.metadata.creationTimestamp",
	"INIT:.spec.initContainers[*].image",
	"ARGS:.spec.containers[1].args",
	"MISSING:.status.nothing.here",
}

func podFixtures(t *testing.T) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile("testdata/custom-columns-pods.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := make([]*unstructured.Unstructured, len(raw))
	for i, m := range raw {
		out[i] = &unstructured.Unstructured{Object: m}
	}
	return out
}

// kubectlCell is what kubectl's custom-columns printer prints for one column of obj; where it fails (and
// kubectl get with it), the cell kscope shows for that object instead, "<error: …>".
func kubectlCell(t *testing.T, spec string, obj *unstructured.Unstructured) string {
	t.Helper()
	p, err := get.NewCustomColumnsPrinterFromSpec(spec, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.PrintObj(obj, &b); err != nil {
		return "<error: " + err.Error() + ">"
	}
	return strings.TrimRight(b.String(), " \n")
}

// TestJSONPathColumnCellsAsKubectl: each column's cell equals kubectl's custom-columns printer's, on the whole
// object and on the object as an ObjectSource keeps it (the transform keeps what every column reads).
func TestJSONPathColumnCellsAsKubectl(t *testing.T) {
	pods := podFixtures(t)
	var cols []ObjectColumn
	for _, spec := range customColumnSpecs {
		p, err := get.NewCustomColumnsPrinterFromSpec(spec, nil, true)
		if err != nil {
			t.Fatal(err)
		}
		c, err := JSONPathColumn(p.Columns[0].Header, p.Columns[0].FieldSpec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		cols = append(cols, c)
	}
	src, err := NewObjectSource(nil, Spec{GVR: podsGVR(), Namespaced: true, Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	for _, pod := range pods {
		kept, err := src.transform(pod.DeepCopy())
		if err != nil {
			t.Fatal(err)
		}
		for i, spec := range customColumnSpecs {
			want := kubectlCell(t, spec, pod)
			if got := cols[i].Cell(pod.Object); got != want {
				t.Errorf("%s %s on the object: %q, kubectl prints %q", pod.GetName(), spec, got, want)
			}
			if got := cols[i].Cell(kept.(*unstructured.Unstructured).Object); got != want {
				t.Errorf("%s %s on the kept object: %q, kubectl prints %q", pod.GetName(), spec, got, want)
			}
		}
	}
	if got := cols[len(cols)-1].Cell(pods[0].Object); got != "<none>" {
		t.Errorf("a missing field: %q, want <none>", got)
	}
}

// TestObjectSourceTransformDrops: the kept object holds the columns' fields and the row's metadata, and nothing
// else (no managedFields, annotations, owner references or unread spec and status fields).
func TestObjectSourceTransformDrops(t *testing.T) {
	pod := podFixtures(t)[0]
	img, err := JSONPathColumn("IMAGE", "{.spec.containers[*].image}")
	if err != nil {
		t.Fatal(err)
	}
	cond, err := JSONPathColumn("COND", `{.status.conditions[?(@.type=="Ready")].status}`)
	if err != nil {
		t.Fatal(err)
	}
	src, err := NewObjectSource(nil, Spec{GVR: podsGVR(), Namespaced: true, Columns: []ObjectColumn{img, cond}})
	if err != nil {
		t.Fatal(err)
	}
	before := pod.DeepCopy()
	out, _ := src.transform(pod)
	if !reflect.DeepEqual(pod.Object, before.Object) {
		t.Error("the transform modified the object it was given")
	}
	want := map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "web-1", "namespace": "shop", "uid": "u-1", "resourceVersion": "101",
			"creationTimestamp": "2026-11-30T10:00:00Z", "labels": map[string]any{"app": "web", "fred.io/tier": "front"}},
		"spec": map[string]any{"containers": []any{map[string]any{"image": "nginx:1.27"},
			map[string]any{"image": "busybox:1.36"}}},
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "False"},
			map[string]any{"type": "PodScheduled", "status": "True"}}},
	}
	if got := out.(*unstructured.Unstructured).Object; !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("kept\n%s\nwant\n%s", g, w)
	}
}

// TestJSONPathColumnBad: a template that does not parse is an error naming the column.
func TestJSONPathColumnBad(t *testing.T) {
	for _, expr := range []string{"{.metadata.name", "{.spec.containers[}", "{.a[?(@.b=='x']}"} {
		if _, err := JSONPathColumn("X", expr); err == nil || !strings.Contains(err.Error(), "column X") {
			t.Errorf("%s: %v, want an error naming column X", expr, err)
		}
	}
}

func podsGVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Version: "v1", Resource: "pods"}
}
