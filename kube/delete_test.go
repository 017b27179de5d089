package kube

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// TestDeleteCarriesTheUID: a delete names the UID of the object the user chose, so that an object re-created
// under the same name since is not deleted in its place.
func TestDeleteCarriesTheUID(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = r.Method + " " + r.URL.Path + " " + string(body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Success"}`))
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL}
	c := &Cluster{cfg: cfg, dyn: dynamic.NewForConfigOrDie(cfg)}
	if err := c.Delete(context.Background(), schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "shop", "web-1", "u-1"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "DELETE /api/v1/namespaces/shop/pods/web-1 ") || !strings.Contains(got, `"preconditions":{"uid":"u-1"}`) {
		t.Errorf("request %q, want a DELETE with the UID precondition", got)
	}
}
