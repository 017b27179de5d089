package verbs

import (
	"context"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// reCreated is why a write was refused when the object of that name has another UID than the one shown.
const reCreated = "conflict: it was re-created since shown (new UID)"

// conflictError is a write refused, or not sent, because the object is no longer the one the user was
// shown; why says what changed.
type conflictError struct{ why string }

func (e *conflictError) Error() string { return e.why + "; nothing written" }

// explainConflict returns err, or, when the server refused the write for its precondition (Conflict) or
// found no object (NotFound), a conflictError saying what changed: the object is gone, was re-created
// under the same name (a UID other than uid), or changed. It reads the object again to tell.
func explainConflict(ctx context.Context, c cluster.Interface, res discovery.Resource, row *watch.Row, uid types.UID, err error) error {
	switch {
	case apierrors.IsNotFound(err):
		return &conflictError{why: "it was deleted since shown"}
	case !apierrors.IsConflict(err):
		return err
	}
	obj, gerr := c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	switch {
	case apierrors.IsNotFound(gerr):
		return &conflictError{why: "it was deleted since shown"}
	case gerr == nil && obj.GetUID() != uid:
		return &conflictError{why: reCreated}
	}
	return &conflictError{why: "conflict: it changed since shown"}
}

// failedWrite is the status line of a write that failed: doing, then the conflict (what changed, nothing
// written) or the error.
func failedWrite(doing string, err error) string {
	var conflict *conflictError
	if errors.As(err, &conflict) {
		return fmt.Sprintf("not %s: %s", doing, conflict.Error())
	}
	return fmt.Sprintf("%s: %s", doing, err)
}

// needUID tells whether row's UID is known, the precondition of every write; if not it says so (doing
// what) and nothing is sent.
func needUID(v *Verbs, doing, what string, row *watch.Row) bool {
	if row.UID == "" {
		v.Errorf("not %s %s yet: its UID is still being read (try again in a moment)", doing, what)
		return false
	}
	return true
}

// sameObject tells whether uid, the UID of the object just read by name, is the one row shows; if not it
// says so (doing what) and nothing is sent.
func sameObject(v *Verbs, doing, what string, row *watch.Row, uid types.UID) bool {
	if uid != row.UID {
		v.Errorf("%s", failedWrite(doing+" "+what, &conflictError{why: reCreated}))
		return false
	}
	return true
}

// ShownRow is row with uid, the UID of the object a view shows (row itself when uid is unknown or the
// same), so that the view's writes act on the object shown and no other of the same name.
func ShownRow(row *watch.Row, uid types.UID) *watch.Row {
	if uid == "" || uid == row.UID {
		return row
	}
	cp := *row
	cp.UID = uid
	return &cp
}
