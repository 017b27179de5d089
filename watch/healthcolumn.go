package watch

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/health"
)

// HealthColumnName is the header of HealthColumn.
const HealthColumnName = "HEALTH"

// HealthColumn is the column of an object's health as kstatus computes it (Current, InProgress, Failed,
// Terminating, Unknown), computed from the whole object as the server sends it, in the informer's transform
// (ObjectColumn.Whole): an ObjectSource of this column keeps the status word and the row's metadata, never the
// object's spec or status. Over a built-in kind kstatus has rules for, NewObjectSourceWithConfig computes the
// same word from the objects' protobuf encoding instead (health.ProtoKind). A plain value, safe to share.
func HealthColumn() ObjectColumn {
	c := WholeColumn(Column{Name: HealthColumnName, Type: "string",
		Description: "the object's health as kstatus computes it: Current, InProgress, Failed, Terminating, Unknown"},
		func(obj map[string]any) string {
			return string(health.StatusOf(&unstructured.Unstructured{Object: obj}))
		})
	c.kstatus = true
	return c
}

// NewObjectSourceWithConfig is NewObjectSource, given the connection's cfg as well. A source whose only
// column is HealthColumn, over a built-in kind that health.ProtoKindFor reads (pods, deployments,
// statefulsets, daemonsets, replicasets, jobs, cronjobs, persistentvolumeclaims, services, configmaps,
// secrets, poddisruptionbudgets), lists and watches the objects in protobuf and computes each one's word as
// it is read, without decoding the object whole (healthListWatch): the same word, several times faster and
// with a fraction of the memory. Its rows are written by a reflector straight into its row store: one row per
// object is all it holds. Any other spec is NewObjectSource's (the dynamic informer over JSON).
func NewObjectSourceWithConfig(cfg *rest.Config, client dynamic.Interface, spec Spec) (*ObjectSource, error) {
	s, err := NewObjectSource(client, spec)
	if err != nil {
		return nil, err
	}
	kind := health.ProtoKindFor(spec.GVR)
	if len(spec.Columns) != 1 || !spec.Columns[0].kstatus || kind == nil {
		return s, nil
	}
	rc, err := newTableClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", spec.GVR.String(), err)
	}
	s.health = &healthListWatch{client: rc, spec: spec, kind: kind, rows: newHealthRows(),
		connected: s.connected, disconnected: s.disconnected}
	return s, nil
}
