package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestHealthPanel(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) { o.Resource = "deployments" })
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
	h.cluster.put(deploymentsGVR, dep)
	h.press(tcell.KeyRune, 'y')
	waitFor(t, h, "health InProgress")
	h.contains("TYPE         STATUS  REASON                      LAST TRANSITION  MESSAGE")
	h.contains("Available    False   MinimumReplicasUnavailable  5m ago           Deployment does not have minimum availability.")
	h.contains("Progressing  True    ReplicaSetUpdated           2m ago")
	h.press(tcell.KeyRune, 'H')
	h.contains("(2 conditions hidden: shift-h)")
	h.lacks("LAST TRANSITION")
	h.press(tcell.KeyRune, 'H')
	h.contains("LAST TRANSITION")

	// The rollout ends: the header follows the object.
	done := dep.DeepCopy()
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "updatedReplicas")
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "readyReplicas")
	_ = unstructured.SetNestedField(done.Object, int64(2), "status", "availableReplicas")
	_ = unstructured.SetNestedSlice(done.Object, []any{map[string]any{"type": "Available", "status": "True",
		"reason": "MinimumReplicasAvailable"}, map[string]any{"type": "Progressing", "status": "True",
		"reason": "NewReplicaSetAvailable"}}, "status", "conditions")
	h.cluster.put(deploymentsGVR, done)
	waitFor(t, h, "health Current")

	// The describe view has the same header.
	h.press(tcell.KeyRune, 'd')
	waitFor(t, h, "describe deployments")
	waitFor(t, h, "health Current")
	if !strings.Contains(h.text(), "Progressing  True") {
		t.Errorf("describe header lacks the conditions:\n%s", h.text())
	}
}
