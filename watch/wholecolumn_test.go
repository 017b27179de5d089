package watch

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestWholeColumnCutsTheObject: a column computed from the whole object (HEALTH) gets its cell from the
// object as the server sent it, beside a JSONPath column; the source keeps the cell, not the fields it read
// (no spec, no status; of the metadata only what identifies the row and its version), and transforming the kept object again (the informer may) keeps the cell as it was.
func TestWholeColumnCutsTheObject(t *testing.T) {
	pods := podFixtures(t)
	ready := pods[0].DeepCopy()
	_ = unstructured.SetNestedField(ready.Object, "Running", "status", "phase")
	_ = unstructured.SetNestedSlice(ready.Object, []any{map[string]any{"type": "Ready", "status": "True"}}, "status", "conditions")
	cols := append(objectColumns(t)[:1], HealthColumn())
	src, err := NewObjectSource(fakePodsClient(ready), Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	kept, err := src.transform(ready.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	u := kept.(*unstructured.Unstructured)
	if _, has := u.Object["status"]; has {
		t.Errorf("the kept object has a status: %v", u.Object)
	}
	if _, has := u.Object["spec"]; has {
		t.Errorf("the kept object has a spec: %v", u.Object)
	}
	if u.GetLabels() == nil {
		t.Errorf("kept metadata %v, want the row's (labels too) beside a JSONPath column", u.Object["metadata"])
	}
	// A source of HEALTH alone keeps only what identifies the row and its version.
	lean, err := NewObjectSource(fakePodsClient(), Spec{GVR: podsGVR(), Namespaced: true, Columns: []ObjectColumn{HealthColumn()}})
	if err != nil {
		t.Fatal(err)
	}
	leanObj, _ := lean.transform(ready.DeepCopy())
	if m, _ := leanObj.(*unstructured.Unstructured).Object["metadata"].(map[string]any); len(m) != 4 ||
		m["name"] != ready.GetName() || m["resourceVersion"] != ready.GetResourceVersion() || m["uid"] == nil || m["namespace"] == nil {
		t.Errorf("kept metadata %v, want the name, namespace, uid and resourceVersion only", m)
	}
	again, _ := src.transform(u)
	if r := src.row(again.(*unstructured.Unstructured)); r.Cells[0] != ready.GetName() || r.Cells[1] != "Current" {
		t.Errorf("cells after a second transform %q, want [%s Current]", r.Cells, ready.GetName())
	}

	src.Start(context.Background())
	defer src.Stop()
	waitFor(t, "synced with 1 row", func() bool { return src.State().Phase == Synced && src.Len() == 1 })
	if r, _ := src.Row("shop/" + ready.GetName()); r == nil || r.Cells[1] != "Current" {
		t.Fatalf("row %+v", r)
	}
}
