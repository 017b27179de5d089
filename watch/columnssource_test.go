package watch

import (
	"strings"
	"testing"
)

// columnsSpec is the spec of custom columns over the pods of namespace shop: the Ready condition's status
// first, then columns of several shapes.
func columnsSpec(t *testing.T) Spec {
	spec := Spec{GVR: podsGVR(), Namespaced: true, Namespace: "shop", LabelSelector: "app=web"}
	for _, expr := range []string{`{.status.conditions[?(@.type=="Ready")].status}`, "{.metadata.name}",
		"{.spec.containers[*].image}", "{.status.phase}", "{.kind}", "{.metadata.finalizers}",
		"{.status.containerStatuses[*].state}"} { // (no times: each run's pods are made at its own time)
		c, err := JSONPathColumn(expr, expr)
		if err != nil {
			t.Fatal(err)
		}
		spec.Columns = append(spec.Columns, c)
	}
	return spec
}

// TestColumnsSourceSameAsJSONPath: a source of custom columns over pods reads them in protobuf, and its rows
// (keys, names, uids, resourceVersions and every cell) are the JSON path's, listed, after watch events and
// after a relist; a server that answers in JSON gives the same rows.
func TestColumnsSourceSameAsJSONPath(t *testing.T) {
	want, _ := objectScript(t, "json", false, columnsSpec(t), "True", "<none>")
	got, f := objectScript(t, "protobuf", false, columnsSpec(t), "True", "<none>")
	fromJSON, _ := objectScript(t, "protobuf", true, columnsSpec(t), "True", "<none>")
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d: protobuf rows\n%s\nJSON path rows\n%s", i, got[i], want[i])
		}
		if fromJSON[i] != want[i] {
			t.Errorf("step %d: rows of a JSON answer\n%s\nJSON path rows\n%s", i, fromJSON[i], want[i])
		}
	}
	if !strings.Contains(want[0], `shop/ready ready u-ready 101 ["True" "ready" "nginx" "Running" "Pod" "<none>" "<none>"]`) ||
		!strings.Contains(want[0], `"[example.com/hold]" "<none>"]`) ||
		!strings.Contains(want[0], `"map[waiting:map[reason:CrashLoopBackOff]]"]`) {
		t.Errorf("rows\n%s", want[0])
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, a := range f.accepts {
		if !strings.HasPrefix(a, "application/vnd.kubernetes.protobuf") || f.queries[i].Get("labelSelector") != "app=web" {
			t.Errorf("request %d: Accept %q, query %v", i, a, f.queries[i])
		}
	}
}
