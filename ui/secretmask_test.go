package ui

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestSecretYAMLMasksLastAppliedConfiguration: a Secret created with `kubectl apply` carries its data again
// in the last-applied-configuration annotation; masked YAML shows neither, revealed YAML shows both.
func TestSecretYAMLMasksLastAppliedConfiguration(t *testing.T) {
	secret := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "creds", "namespace": "shop", "annotations": map[string]any{
			lastAppliedAnnotation: `{"apiVersion":"v1","data":{"token":"c2VjcmV0"},"kind":"Secret","stringData":{"password":"hunter2"}}`,
			"team":                "payments",
		}},
		"data": map[string]any{"token": "c2VjcmV0", "password": "aHVudGVyMg=="},
	}}
	masked, err := RenderYAML(secret, false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, secretText := range []string{"c2VjcmV0", "hunter2", "aHVudGVyMg=="} {
		if strings.Contains(masked, secretText) {
			t.Errorf("masked YAML shows %q:\n%s", secretText, masked)
		}
	}
	if !strings.Contains(masked, "team: payments") || !strings.Contains(masked, lastAppliedAnnotation+": '********'") {
		t.Errorf("masked YAML lost the other annotations or the masked one:\n%s", masked)
	}
	revealed, err := RenderYAML(secret, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(revealed, "hunter2") || !strings.Contains(revealed, "aHVudGVyMg==") {
		t.Errorf("revealed YAML hides the data:\n%s", revealed)
	}
	if secret.GetAnnotations()[lastAppliedAnnotation] == maskedValue {
		t.Error("RenderYAML modified the object")
	}
}
