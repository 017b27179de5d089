package readonly

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// fakeAPIServer answers every request with a ConfigMap and records what reached it (method, path and the
// credential it carried).
func fakeAPIServer(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"exec","namespace":"shop"}}`))
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// TestProxy: the proxy forwards reads with the user's credential (never its own token), answers writes,
// exec, attach, port-forward and upgrades 403 with kscope's message without reaching the server and reports
// each, and refuses requests without its token.
func TestProxy(t *testing.T) {
	srv, seen := fakeAPIServer(t)
	var mu sync.Mutex
	var refusals []Refusal
	sc, err := NewServingCert()
	if err != nil {
		t.Fatal(err)
	}
	p, err := StartProxy(&rest.Config{Host: srv.URL, BearerToken: "users-secret"}, sc, func(r Refusal) {
		mu.Lock()
		refusals = append(refusals, r)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !strings.HasPrefix(p.URL(), "https://127.0.0.1:") {
		t.Errorf("the proxy listens on %s, want loopback", p.URL())
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(p.CA())
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	tests := []struct {
		name, method, path, upgrade string
		noToken                     bool
		code                        int
		message                     string
	}{
		{name: "read", method: "GET", path: "/api/v1/namespaces/shop/configmaps/exec", code: 200},
		{name: "watch", method: "GET", path: "/api/v1/namespaces/shop/pods?watch=true", code: 200},
		{name: "own rights", method: "POST", path: "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", code: 200},
		{name: "delete", method: "DELETE", path: "/api/v1/namespaces/shop/configmaps/exec", code: 403,
			message: "read-only mode: DELETE /api/v1/namespaces/shop/configmaps/exec refused"},
		{name: "create", method: "POST", path: "/api/v1/namespaces/shop/configmaps", code: 403},
		{name: "patch", method: "PATCH", path: "/apis/apps/v1/namespaces/shop/deployments/web/scale", code: 403},
		{name: "exec", method: "POST", path: "/api/v1/namespaces/shop/pods/web-1/exec", code: 403},
		{name: "attach", method: "GET", path: "/api/v1/namespaces/shop/pods/web-1/attach", code: 403},
		{name: "port-forward upgrade", method: "GET", path: "/api/v1/namespaces/shop/pods/web-1/portforward", upgrade: "websocket", code: 403},
		{name: "any upgrade", method: "GET", path: "/api/v1/namespaces/shop/pods", upgrade: "SPDY/3.1", code: 403},
		{name: "no token", method: "GET", path: "/api/v1/namespaces/shop/configmaps/a", noToken: true, code: 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(seen())
			req, _ := http.NewRequest(tt.method, p.URL()+tt.path, strings.NewReader("{}"))
			if !tt.noToken {
				req.Header.Set("Authorization", "Bearer "+p.Token())
			}
			if tt.upgrade != "" {
				req.Header.Set("Connection", "Upgrade")
				req.Header.Set("Upgrade", tt.upgrade)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body := new(bytes.Buffer)
			_, _ = body.ReadFrom(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != tt.code || !strings.Contains(body.String(), tt.message) {
				t.Fatalf("%d %s, want %d with %q", resp.StatusCode, body, tt.code, tt.message)
			}
			after := seen()[before:]
			switch {
			case tt.code == 200 && (len(after) != 1 || !strings.HasSuffix(after[0], " Bearer users-secret")):
				t.Errorf("the server saw %q, want the request with the user's credential", after)
			case tt.code != 200 && len(after) != 0:
				t.Errorf("the server saw %q, want nothing", after)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refusals) != 7 || refusals[0] != (Refusal{Method: "DELETE", Path: "/api/v1/namespaces/shop/configmaps/exec"}) {
		t.Errorf("refusals reported: %v, want the 7 refused requests, DELETE first", refusals)
	}
}

// TestChildKubeconfig: the file is private, holds the proxy's token and no credential of the user, keeps
// the user's names, and gives a client that reads through the proxy and gets kscope's Forbidden on a
// write; Point replaces it, Remove deletes the folder.
func TestChildKubeconfig(t *testing.T) {
	srv, seen := fakeAPIServer(t)
	sc, err := NewServingCert()
	if err != nil {
		t.Fatal(err)
	}
	p, err := StartProxy(&rest.Config{Host: srv.URL, BearerToken: "users-secret"}, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	k, err := NewChildKubeconfig()
	if err != nil {
		t.Fatal(err)
	}
	defer k.Remove()
	if err := k.Point(p, Names{Context: "prod", Cluster: "c1", User: "me", Namespace: "shop"}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{k.dir: 0o700 | os.ModeDir, k.Path(): 0o600} {
		if fi, err := os.Stat(path); err != nil || fi.Mode() != want {
			t.Errorf("%s: %v %v, want mode %v", path, fi.Mode(), err, want)
		}
	}
	data, _ := os.ReadFile(k.Path())
	if strings.Contains(string(data), "users-secret") || !strings.Contains(string(data), p.Token()) {
		t.Errorf("the file holds the user's credential or not the proxy's token:\n%s", data)
	}
	loader := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(&clientcmd.ClientConfigLoadingRules{ExplicitPath: k.Path()},
		&clientcmd.ConfigOverrides{CurrentContext: "prod"}) // as `--context $CONTEXT`
	cfg, err := loader.ClientConfig()
	if ns, _, _ := loader.Namespace(); err != nil || ns != "shop" {
		t.Fatalf("the context prod: %v, namespace %q", err, ns)
	}
	cms := dynamic.NewForConfigOrDie(cfg).Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("shop")
	if _, err := cms.Get(context.Background(), "exec", metav1.GetOptions{}); err != nil {
		t.Fatalf("a read through the child's kubeconfig: %v", err)
	}
	err = cms.Delete(context.Background(), "exec", metav1.DeleteOptions{})
	if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "read-only mode: DELETE") {
		t.Fatalf("a delete through the child's kubeconfig: %v, want kscope's Forbidden", err)
	}
	if got := seen(); len(got) != 1 || !strings.HasPrefix(got[0], "GET ") {
		t.Errorf("the server saw %q, want the read only", got)
	}
	p2, err := StartProxy(&rest.Config{Host: srv.URL}, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if err := k.Point(p2, Names{}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(k.Path()); !strings.Contains(string(data), p2.URL()) || !strings.Contains(string(data), "kscope-readonly") {
		t.Errorf("after Point to another proxy:\n%s", data)
	}
	if err := k.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(k.dir); !os.IsNotExist(err) {
		t.Errorf("the folder is still there: %v", err)
	}
}
