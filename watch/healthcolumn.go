package watch

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/health"
)

// HealthColumnName is the header of HealthColumn.
const HealthColumnName = "HEALTH"

// HealthColumn is the column of an object's health as kstatus computes it (Current, InProgress, Failed,
// Terminating, Unknown), computed from the whole object as the server sends it, in the informer's transform
// (ObjectColumn.Whole): an ObjectSource of this column keeps the status word and the row's metadata, never the
// object's spec or status. A plain value, safe to share.
func HealthColumn() ObjectColumn {
	return WholeColumn(Column{Name: HealthColumnName, Type: "string",
		Description: "the object's health as kstatus computes it: Current, InProgress, Failed, Terminating, Unknown"},
		func(obj map[string]any) string {
			return string(health.StatusOf(&unstructured.Unstructured{Object: obj}))
		})
}
