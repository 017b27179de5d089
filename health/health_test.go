package health

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func obj(apiVersion, kind string, meta, status map[string]any, spec map[string]any) *unstructured.Unstructured {
	m := map[string]any{"name": "x", "namespace": "ns"}
	for k, v := range meta {
		m[k] = v
	}
	o := map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": m}
	if status != nil {
		o["status"] = status
	}
	if spec != nil {
		o["spec"] = spec
	}
	return &unstructured.Unstructured{Object: o}
}

func TestOf(t *testing.T) {
	cond := func(typ, st, reason string) map[string]any {
		return map[string]any{"type": typ, "status": st, "reason": reason, "message": reason + " message",
			"lastTransitionTime": "2026-12-01T10:00:00Z"}
	}
	tests := []struct {
		name string
		obj  *unstructured.Unstructured
		want Status
	}{
		{"nil is not found", nil, NotFound},
		{"deployment available", obj("apps/v1", "Deployment", map[string]any{"generation": int64(2)},
			map[string]any{"observedGeneration": int64(2), "replicas": int64(3), "updatedReplicas": int64(3),
				"readyReplicas": int64(3), "availableReplicas": int64(3),
				"conditions": []any{cond("Available", "True", "MinimumReplicasAvailable")}},
			map[string]any{"replicas": int64(3)}), Current},
		{"deployment rolling out", obj("apps/v1", "Deployment", map[string]any{"generation": int64(2)},
			map[string]any{"observedGeneration": int64(2), "replicas": int64(3), "updatedReplicas": int64(1),
				"readyReplicas": int64(2), "availableReplicas": int64(2)},
			map[string]any{"replicas": int64(3)}), InProgress},
		{"generation not observed", obj("apps/v1", "Deployment", map[string]any{"generation": int64(3)},
			map[string]any{"observedGeneration": int64(2)}, nil), InProgress},
		{"deletion timestamp", obj("v1", "ConfigMap", map[string]any{"deletionTimestamp": "2026-12-01T10:00:00Z",
			"finalizers": []any{"example.com/hold"}}, nil, nil), Terminating},
		{"failed job", obj("batch/v1", "Job", nil, map[string]any{"failed": int64(1),
			"conditions": []any{cond("Failed", "True", "BackoffLimitExceeded")}}, map[string]any{"completions": int64(1)}), Failed},
		{"custom resource not ready", obj("example.com/v1", "Widget", nil,
			map[string]any{"conditions": []any{cond("Ready", "False", "Waiting")}}, nil), InProgress},
		{"custom resource stalled", obj("example.com/v1", "Widget", nil,
			map[string]any{"conditions": []any{cond("Stalled", "True", "Broken")}}, nil), Failed},
		{"custom resource without status", obj("example.com/v1", "Widget", nil, nil, nil), Current},
		{"unreadable conditions", obj("example.com/v1", "Widget", nil, map[string]any{"conditions": "yes"}, nil), Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Of(tt.obj)
			if h.Status != tt.want {
				t.Fatalf("status %s (%q), want %s", h.Status, h.Message, tt.want)
			}
			if tt.obj != nil {
				if s := StatusOf(tt.obj); s != tt.want {
					t.Errorf("StatusOf = %s, want %s", s, tt.want)
				}
			}
			if h.Message == "" && tt.want != Current {
				t.Errorf("no message for %s", h.Status)
			}
		})
	}
}

func TestConditions(t *testing.T) {
	o := obj("example.com/v1", "Widget", nil, map[string]any{"conditions": []any{
		map[string]any{"type": "Ready", "status": "False", "reason": "Waiting", "message": "for the database",
			"lastTransitionTime": "2026-12-01T10:00:00Z"},
		"not a condition",
		map[string]any{"type": "Synced", "status": "True", "lastUpdateTime": "2026-12-01T11:00:00Z", "reason": int64(3)},
	}}, nil)
	got := Conditions(o)
	want := []Condition{
		{Type: "Ready", Status: "False", Reason: "Waiting", Message: "for the database",
			LastTransition: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)},
		{Type: "Synced", Status: "True", LastTransition: time.Date(2026, 12, 1, 11, 0, 0, 0, time.UTC)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d conditions %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i].Type != want[i].Type || got[i].Status != want[i].Status || got[i].Reason != want[i].Reason ||
			got[i].Message != want[i].Message || !got[i].LastTransition.Equal(want[i].LastTransition) {
			t.Errorf("condition %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if n := len(Conditions(obj("v1", "ConfigMap", nil, nil, nil))); n != 0 {
		t.Errorf("a ConfigMap has %d conditions", n)
	}
}
