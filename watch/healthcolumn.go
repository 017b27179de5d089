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

// NewObjectSourceWithConfig is NewObjectSource, given the connection's cfg as well, reading the objects
// without the dynamic informer (protoListWatch): a reflector writes their rows straight into its row store, and
// one row per object is all it holds.
//   - A source whose only column is HealthColumn, over a kind health.ProtoKindFor reads (pods, deployments,
//     statefulsets, daemonsets, replicasets, jobs, cronjobs, persistentvolumeclaims, services, configmaps,
//     secrets, poddisruptionbudgets), reads the objects in protobuf and computes each one's word from the few
//     fields kstatus reads, without decoding the object whole (healthCodec).
//   - A source of columns computed from fields (JSONPath columns, FuncColumn), over any kind of client-go's
//     scheme, reads them in protobuf, decodes each object into its Go type and computes its cells from the
//     fields they read (columnsCodec).
//   - Any other (a custom resource, which the server serves in JSON only; a column computed from the whole
//     object, as HEALTH over a kind without a ProtoKind) reads them in JSON, each item of a list decoded as it
//     arrives and dropped once its row is computed (jsonCodec).
//
// Each gives the dynamic informer's cells, several times faster and with a fraction of its memory. A table of
// custom columns shows the rows of its first list as they are read; a HEALTH column, which fills a table
// already on screen, waits for its whole list.
func NewObjectSourceWithConfig(cfg *rest.Config, client dynamic.Interface, spec Spec) (*ObjectSource, error) {
	s, err := NewObjectSource(client, spec)
	if err != nil {
		return nil, err
	}
	lw := &protoListWatch{spec: spec, connected: s.connected, disconnected: s.disconnected}
	if len(s.whole) == 0 {
		lw.early = s.earlyRow // the view itself: its rows show as they come
	}
	kind := health.ProtoKindFor(spec.GVR)
	var columns *columnsCodec
	if len(s.whole) == 0 { // (a column computed from the whole object cannot read a pruned one)
		columns = newColumnsCodec(s, spec.GVR)
	}
	switch {
	case len(spec.Columns) == 1 && spec.Columns[0].kstatus && kind != nil:
		lw.codec = healthCodec{kind: kind, rows: newHealthRows()}
	case columns != nil:
		lw.codec = columns
	default:
		lw.codec, lw.jsonOnly = jsonCodec{src: s}, true
	}
	if lw.client, err = newTableClient(cfg); err != nil {
		return nil, fmt.Errorf("watch %s: %w", spec.GVR.String(), err)
	}
	s.proto = lw
	return s, nil
}
