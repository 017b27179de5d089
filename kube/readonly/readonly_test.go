package readonly

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

func TestAllowed(t *testing.T) {
	tests := []struct {
		method, path, upgrade string
		want                  bool
	}{
		{"GET", "/api/v1/namespaces/shop/pods", "", true},
		{"GET", "/api/v1/namespaces/shop/pods/web-1/log", "", true},
		{"HEAD", "/version", "", true},
		{"OPTIONS", "/api", "", true},
		{"DELETE", "/api/v1/namespaces/shop/pods/web-1", "", false},
		{"PUT", "/apis/apps/v1/namespaces/shop/deployments/web", "", false},
		{"PATCH", "/apis/apps/v1/namespaces/shop/deployments/web/scale", "", false},
		{"PATCH", "/api/v1/namespaces/shop/configmaps/web", "", false}, // a server-side apply, a dry run (dryRun=All) too
		{"POST", "/api/v1/namespaces/shop/configmaps", "", false},
		{"POST", "/api/v1/namespaces/shop/pods/web-1/eviction", "", false},
		{"POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "", true},
		{"POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "", true},
		{"POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", "", false},
		{"GET", "/api/v1/namespaces/shop/pods/web-1/exec", "websocket", false}, // kubectl ≥ 1.30 exec
		{"POST", "/api/v1/namespaces/shop/pods/web-1/exec", "SPDY/3.1", false},
		{"GET", "/api/v1/namespaces/shop/pods/web-1/exec", "", false},
		{"POST", "/api/v1/namespaces/shop/pods/web-1/attach", "", false},
		{"GET", "/api/v1/namespaces/shop/pods/web-1/portforward", "websocket", false},
		{"GET", "/api/v1/namespaces/shop/pods", "websocket", false}, // any upgrade
		// objects named like the subresources are objects: read them, never write them
		{"GET", "/api/v1/namespaces/shop/configmaps/exec", "", true},
		{"GET", "/api/v1/namespaces/shop/configmaps/attach", "", true},
		{"GET", "/api/v1/namespaces/shop/configmaps/portforward", "", true},
		{"GET", "/api/v1/watch/namespaces/shop/configmaps/exec", "", true},
		{"GET", "/api/v1/namespaces/exec", "", true},
		{"GET", "/api/v1/namespaces/portforward", "", true},
		{"GET", "/api/v1/namespaces/attach/pods", "", true},
		{"GET", "/api/v1/namespaces/exec/pods/attach", "", true},
		{"GET", "/apis/shop.example.com/v1/namespaces/shop/widgets/exec", "", true},
		{"GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/exec", "", true},
		{"GET", "/api/v1/nodes/attach", "", true},
		{"DELETE", "/api/v1/namespaces/shop/configmaps/exec", "", false},
		{"GET", "/api/v1/namespaces/status", "", true},
		{"GET", "/api/v1/namespaces/shop/status", "", true},
		// the subresources themselves, by position, in every form
		{"GET", "/api/v1/namespaces/exec/pods/exec/exec", "", false},
		{"GET", "/api/v1/namespaces/status/pods/web-1/attach", "", false},
		{"GET", "/api/v1/namespaces/shop/pods/web-1/portforward", "", false},
		{"GET", "/apis/shop.example.com/v1/namespaces/shop/widgets/w/exec", "", false},
		{"GET", "/apis/shop.example.com/v1/widgets/w/attach", "", false},
		{"GET", "/api/v1/nodes/n1/exec", "", false},
		{"GET", "/api/v1/namespaces/shop/exec", "", true}, // the server reads a list of resource "exec" in shop
		{"GET", "/api/v1/namespaces/shop/pods/web-1/exec/", "", false},
		{"GET", "/api/v1/watch/namespaces/shop/pods/web-1/exec", "", false},
		{"GET", "/version", "", true},
		{"GET", "/apis", "", true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(tt.method, "https://server"+tt.path, nil)
		if tt.upgrade != "" {
			r.Header.Set("Connection", "Upgrade")
			r.Header.Set("Upgrade", tt.upgrade)
		}
		if got := Allowed(r); got != tt.want {
			t.Errorf("%s %s (upgrade %q): allowed %v, want %v", tt.method, tt.path, tt.upgrade, got, tt.want)
		}
	}
}

// TestWrapRefusesBeforeTheServer: a real dynamic client over a wrapped config reads, but its writes never
// reach the server and fail with RefusedError.
func TestWrapRefusesBeforeTheServer(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"shop"}}`))
	}))
	defer srv.Close()
	cfg := &rest.Config{Host: srv.URL}
	dyn, err := dynamic.NewForConfig(Wrap(cfg))
	if err != nil {
		t.Fatal(err)
	}
	cms := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("shop")
	ctx := context.Background()
	if _, err := cms.Get(ctx, "a", metav1.GetOptions{}); err != nil {
		t.Fatalf("get through the read-only transport: %v", err)
	}
	err = cms.Delete(ctx, "a", metav1.DeleteOptions{})
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "read-only mode: DELETE /api/v1/namespaces/shop/configmaps/a refused") {
		t.Fatalf("delete: %v, want a RefusedError", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "GET /api/v1/namespaces/shop/configmaps/a" {
		t.Errorf("the server saw %q, want the GET only", seen)
	}
	if cfg.WrapTransport != nil {
		t.Error("Wrap modified its argument")
	}
}
