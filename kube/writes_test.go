package kube

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/cluster"
)

// recordWrites is a Cluster on a server that answers every request with status and body, and the request
// it last received ("METHOD path body").
func recordWrites(t *testing.T, status int, body string) (*Cluster, *string) {
	t.Helper()
	got := new(string)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = r.Method + " " + r.URL.Path + " " + string(b)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	cfg := &rest.Config{Host: srv.URL}
	return &Cluster{cfg: cfg, dyn: dynamic.NewForConfigOrDie(cfg)}, got
}

var deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// TestWritesCarryTheirPreconditions: a scale sends the UID and resourceVersion its dialog read in the
// patch's metadata, a restart the UID, so that the server refuses either on another object or state.
func TestWritesCarryTheirPreconditions(t *testing.T) {
	const ok = `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web"}}`
	c, got := recordWrites(t, http.StatusOK, ok)
	pre := cluster.Precondition{UID: "u-1", ResourceVersion: "42"}
	if err := c.Scale(context.Background(), deployments, "shop", "web", 5, pre); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(*got, "PATCH /apis/apps/v1/namespaces/shop/deployments/web/scale ") ||
		!strings.Contains(*got, `"metadata":{"resourceVersion":"42","uid":"u-1"}`) || !strings.Contains(*got, `"replicas":5`) {
		t.Errorf("scale sent %q, want the replicas with the UID and resourceVersion", *got)
	}
	if err := c.Restart(context.Background(), deployments, "shop", "web", time.Unix(0, 0), cluster.Precondition{UID: "u-1"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(*got, "PATCH /apis/apps/v1/namespaces/shop/deployments/web ") || !strings.Contains(*got, `"metadata":{"uid":"u-1"}`) {
		t.Errorf("restart sent %q, want the UID", *got)
	}
}

// TestRestartOfAnotherObjectIsAConflict: the server answers a patch whose UID is not the object's with
// Invalid (metadata.uid is immutable); Restart reports it as the Conflict it is, and other Invalid answers
// as they are.
func TestRestartOfAnotherObjectIsAConflict(t *testing.T) {
	invalid := func(field string) string {
		return `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,
		"message":"Deployment.apps \"web\" is invalid","details":{"name":"web","group":"apps","kind":"Deployment",
		"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"u-1\": field is immutable","field":"` + field + `"}]}}`
	}
	for _, tc := range []struct {
		field    string
		conflict bool
	}{{"metadata.uid", true}, {"spec.template.metadata.annotations", false}} {
		c, _ := recordWrites(t, http.StatusUnprocessableEntity, invalid(tc.field))
		err := c.Restart(context.Background(), deployments, "shop", "web", time.Unix(0, 0), cluster.Precondition{UID: "u-1"})
		if apierrors.IsConflict(err) != tc.conflict || apierrors.IsInvalid(err) == tc.conflict {
			t.Errorf("%s: %v (conflict %v, invalid %v), want conflict %v", tc.field, err, apierrors.IsConflict(err), apierrors.IsInvalid(err), tc.conflict)
		}
	}
}
