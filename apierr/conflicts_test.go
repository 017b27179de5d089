package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestFieldConflicts(t *testing.T) {
	conflict := func(causes ...metav1.StatusCause) error {
		return apierrors.FromObject(&metav1.Status{Status: metav1.StatusFailure, Code: http.StatusConflict,
			Reason: metav1.StatusReasonConflict, Message: "Apply failed with 1 conflict",
			Details: &metav1.StatusDetails{Causes: causes}})
	}
	cause := func(field, msg string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Field: field, Message: msg}
	}
	tests := []struct {
		name string
		err  error
		want []FieldConflict
	}{
		{"nil", nil, nil},
		{"not a conflict", apierrors.NewNotFound(schema.GroupResource{Resource: "configmaps"}, "x"), nil},
		{"a precondition conflict", apierrors.NewConflict(schema.GroupResource{Resource: "configmaps"}, "x", errors.New("changed")), nil},
		{"one", conflict(cause(".data.key", `conflict with "other" using v1`)), []FieldConflict{{".data.key", "other"}}},
		{"wrapped, two managers", fmt.Errorf("host: %w", conflict(cause(".data.a", `conflict with "other" using v1`),
			cause(".spec.replicas", `conflict with "kube-controller-manager" with subresource "scale" using apps/v1`))),
			[]FieldConflict{{".data.a", "other"}, {".spec.replicas", "kube-controller-manager"}}},
		{"a quoted name with a quote", conflict(cause(".x", `conflict with "we\"ird" using v1`)), []FieldConflict{{".x", `we"ird`}}},
		{"another shape", conflict(cause(".x", "conflict with\nsomeone")), []FieldConflict{{".x", "conflict with someone"}}},
		{"other causes left out", conflict(metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: ".y"},
			cause(".x", `conflict with "a" using v1`)), []FieldConflict{{".x", "a"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FieldConflicts(tt.err); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FieldConflicts = %#v, want %#v", got, tt.want)
			}
		})
	}
}
