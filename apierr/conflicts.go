package apierr

import (
	"errors"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// FieldConflict is one field a server-side apply would take from another field manager: the field's path
// as the server writes it (".data.key") and the manager that owns it.
type FieldConflict struct {
	Field, Manager string
}

// FieldConflicts returns the field-manager conflicts of a refused server-side apply (409 Conflict with
// causes of type FieldManagerConflict, found through any wrapping), nil for any other error. The manager is
// the quoted name the server's message starts with (`conflict with "other" using v1`); a message of
// another shape is kept whole as the manager.
func FieldConflicts(err error) []FieldConflict {
	var status apierrors.APIStatus
	if !apierrors.IsConflict(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	var out []FieldConflict
	for _, c := range status.Status().Details.Causes {
		if c.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		out = append(out, FieldConflict{Field: c.Field, Manager: conflictManager(c.Message)})
	}
	return out
}

// conflictManager is the manager named by a conflict cause's message: the quoted name after "conflict
// with ", else the message itself.
func conflictManager(msg string) string {
	rest, ok := strings.CutPrefix(msg, "conflict with ")
	if !ok {
		return OneLine(msg)
	}
	if q, err := strconv.QuotedPrefix(rest); err == nil {
		if name, err := strconv.Unquote(q); err == nil {
			return name
		}
	}
	return OneLine(rest)
}
