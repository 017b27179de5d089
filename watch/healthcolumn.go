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

// NewObjectSourceWithConfig is NewObjectSource, given the connection's cfg as well, reading the objects of a
// built-in kind in protobuf where it can (protoListWatch), its rows written by a reflector straight into its
// row store: one row per object is all it holds.
//   - A source whose only column is HealthColumn, over a kind health.ProtoKindFor reads (pods, deployments,
//     statefulsets, daemonsets, replicasets, jobs, cronjobs, persistentvolumeclaims, services, configmaps,
//     secrets, poddisruptionbudgets), computes each object's word from the few fields kstatus reads, without
//     decoding the object whole (healthCodec).
//   - A source of columns computed from fields (JSONPath columns, FuncColumn), over any kind of client-go's
//     scheme, decodes each object into its Go type and computes its cells from the fields they read
//     (columnsCodec).
//
// Both give the cells of the JSON path, several times faster and with a fraction of its memory. Any other spec
// (a custom resource; a column computed from the whole object, HEALTH among others) is NewObjectSource's: the
// dynamic informer over JSON.
func NewObjectSourceWithConfig(cfg *rest.Config, client dynamic.Interface, spec Spec) (*ObjectSource, error) {
	s, err := NewObjectSource(client, spec)
	if err != nil {
		return nil, err
	}
	var codec rowCodec
	var early func(*rowObject)
	if kind := health.ProtoKindFor(spec.GVR); len(spec.Columns) == 1 && spec.Columns[0].kstatus && kind != nil {
		// No early rows: a HEALTH column fills a table already there, and waits for its whole list.
		codec = healthCodec{kind: kind, rows: newHealthRows()}
	} else if len(s.whole) == 0 {
		if c := newColumnsCodec(s, spec.GVR); c != nil {
			// A table of custom columns is the view itself: it shows the first list's rows as they come.
			codec, early = c, s.earlyRow
		}
	}
	if codec == nil {
		return s, nil
	}
	rc, err := newTableClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", spec.GVR.String(), err)
	}
	s.proto = &protoListWatch{client: rc, spec: spec, codec: codec, early: early,
		connected: s.connected, disconnected: s.disconnected}
	return s, nil
}
