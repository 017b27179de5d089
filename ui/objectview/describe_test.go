package objectview

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func countPrefix(calls []string, prefix string) int {
	n := 0
	for _, c := range calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

// TestDescribeFollowsTheObject: the description is read again when the object changes, at most once a
// second on the navigator's clock; y opens the YAML view (ObjectView.YAML).
func TestDescribeFollowsTheObject(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	v := vt.open(NewDescribeView, deploymentsRes, "web")
	vt.eventually(v, "ResourceVersion: 5")
	vt.contains(v, "describe deployments shop/web")
	vt.search(v, "labels")
	vt.contains(v, "</labels> 1/1")

	changed := deploymentObject()
	changed.SetResourceVersion("6")
	vt.cluster.put(deploymentsGVR, changed)
	changed.SetResourceVersion("7")
	vt.cluster.put(deploymentsGVR, changed)
	clk := vt.nav.FakeClock()
	vt.until("the second describe waits for a second since the first", clk.HasWaiters)
	if n := countPrefix(vt.cluster.recorded(), "describe "); n != 1 {
		t.Errorf("%d describes before a second passed, want 1", n)
	}
	clk.Step(time.Second)
	vt.eventually(v, "ResourceVersion: 7")
	if n := countPrefix(vt.cluster.recorded(), "describe "); n != 2 {
		t.Errorf("%d describes for two changes within a second, want 2 (the first, then one for both)", n)
	}
	vt.press(v, tcell.KeyRune, 'y')
	if p := vt.obj.presses(); !slices.Equal(p, []string{"yaml"}) {
		t.Errorf("pressed %q, want the YAML view opened", p)
	}
}

// TestHealthPanel: the YAML view's header shows the object's health and conditions (H hides and shows them)
// and follows the object; the describe view has the same header.
func TestHealthPanel(t *testing.T) {
	vt := newViewTest(t, 120, 30)
	dep := deploymentObject()
	_ = unstructured.SetNestedField(dep.Object, int64(2), "metadata", "generation")
	_ = unstructured.SetNestedMap(dep.Object, map[string]any{"observedGeneration": int64(2), "replicas": int64(2),
		"updatedReplicas": int64(1), "readyReplicas": int64(1), "availableReplicas": int64(1),
		"conditions": []any{
			map[string]any{"type": "Available", "status": "False", "reason": "MinimumReplicasUnavailable",
				"message": "Deployment does not have minimum availability.", "lastTransitionTime": "2026-01-01T11:55:00Z"},
			map[string]any{"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated",
				"message": "ReplicaSet is progressing.", "lastTransitionTime": "2026-01-01T11:58:00Z"},
		}}, "status")
	vt.cluster.put(deploymentsGVR, dep)
	v := vt.open(NewYAMLView, deploymentsRes, "web")
	vt.eventually(v, "health InProgress")
	vt.contains(v, "TYPE         STATUS  REASON                      LAST TRANSITION  MESSAGE")
	vt.contains(v, "Available    False   MinimumReplicasUnavailable  5m ago           Deployment does not have minimum availability.")
	vt.contains(v, "Progressing  True    ReplicaSetUpdated           2m ago")
	vt.press(v, tcell.KeyRune, 'H')
	vt.contains(v, "(2 conditions hidden: shift-h)")
	vt.lacks(v, "LAST TRANSITION")
	vt.press(v, tcell.KeyRune, 'H')
	vt.contains(v, "LAST TRANSITION")

	// The rollout ends: the header follows the object.
	done := dep.DeepCopy()
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "updatedReplicas")
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "readyReplicas")
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "availableReplicas")
	_ = unstructured.SetNestedSlice(done.Object, []any{map[string]any{"type": "Available", "status": "True",
		"reason": "MinimumReplicasAvailable"}, map[string]any{"type": "Progressing", "status": "True",
		"reason": "NewReplicaSetAvailable"}}, "status", "conditions")
	vt.cluster.put(deploymentsGVR, done)
	vt.eventually(v, "health Current")

	// The describe view has the same header.
	d := vt.open(NewDescribeView, deploymentsRes, "web")
	vt.eventually(d, "describe deployments")
	vt.eventually(d, "health Current")
	if text := vt.text(d); !strings.Contains(text, "Progressing  True") {
		t.Errorf("describe header lacks the conditions:\n%s", text)
	}
}
