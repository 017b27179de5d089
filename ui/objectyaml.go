package ui

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// maskedValue replaces each Secret value unless the user reveals them.
const maskedValue = "********"

// lastAppliedAnnotation is where `kubectl apply` records the applied object.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// RenderYAML returns obj as YAML. managedFields are dropped unless showManaged; a core/v1 Secret's data and
// stringData values, and its last-applied-configuration annotation, are masked unless reveal. obj is not
// modified; safe for any goroutine.
func RenderYAML(obj *unstructured.Unstructured, showManaged, reveal bool) (string, error) {
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
