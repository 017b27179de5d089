package verbs

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// jumpToOwner opens the table of the controller of row (an object of res) with the controller selected.
func (v *Verbs) jumpToOwner(res discovery.Resource, row *watch.Row) {
	gvr, ns, name := res.GVR(), row.Namespace, row.Name
	v.Message("looking up the owner of " + name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
		return c.Get(ctx, gvr, ns, name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			v.Errorf("get %s: %s", name, err)
			return
		}
		ref := metav1.GetControllerOf(obj)
		if ref == nil {
			v.Errorf("%s has no controller owner", name)
			return
		}
		res, err := v.ResourceForKind(ref.APIVersion, ref.Kind)
		if err != nil {
			v.Errorf("%s", err.Error())
			return
		}
		v.OpenOwner(res, ns, ref.Name)
	})
}

// confirmDelete asks before deleting row, an object of res, with its UID as the precondition.
func (v *Verbs) confirmDelete(res discovery.Resource, row *watch.Row) {
	what := fmt.Sprintf("%s %s", res.Name, row.Key)
	if !needUID(v, "deleting", what, row) {
		return
	}
	question := fmt.Sprintf("Delete %s %s?", res.Name, row.Name)
	v.Confirm(question+namespaceLine(row), "Delete", func() {
		v.send("deleting "+what, "deleted "+what, func(ctx context.Context, c cluster.Interface) error {
			return explainConflict(ctx, c, res, row, row.UID, c.Delete(ctx, res.GVR(), row.Namespace, row.Name, row.UID))
		})
	})
}
