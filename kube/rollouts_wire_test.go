package kube

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/kube/readonly"
)

// rolloutServer is an API server holding deployment shop/web (UID u1, revision 2) and its ReplicaSet of
// revision 1; it answers a PATCH with the deployment and records every request ("METHOD path?query body").
func rolloutServer(t *testing.T) (*rest.Config, func() []string) {
	t.Helper()
	const deploy = `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","namespace":"shop","uid":"u1",
		"annotations":{"deployment.kubernetes.io/revision":"2"}},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}}}`
	const rsList = `{"apiVersion":"apps/v1","kind":"ReplicaSetList","metadata":{},"items":[{"apiVersion":"apps/v1","kind":"ReplicaSet",
		"metadata":{"name":"web-a","namespace":"shop","annotations":{"deployment.kubernetes.io/revision":"1"},
		"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"u1","controller":true}]},
		"spec":{"template":{"metadata":{"labels":{"app":"web","pod-template-hash":"a"}},"spec":{"containers":[{"name":"app","image":"nginx:1.25"}]}}}}]}`
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery+" "+string(b))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/replicasets") {
			_, _ = w.Write([]byte(rsList))
			return
		}
		_, _ = w.Write([]byte(deploy))
	}))
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL}, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// TestUndoOnTheWire: an undo lists the deployment's ReplicaSets by its selector and sends one strategic merge
// patch carrying the UID (with dryRun=All for a dry run); through the read-only transport the patch, dry run
// or not, is refused before the server sees it.
func TestUndoOnTheWire(t *testing.T) {
	cfg, seen := rolloutServer(t)
	c := &Cluster{cfg: cfg, dyn: dynamic.NewForConfigOrDie(cfg)}
	for _, dry := range []bool{true, false} {
		if _, err := c.Undo(context.Background(), deploymentsGVR, "shop", "web", 1, "u1", dry); err != nil {
			t.Fatalf("undo (dry run %v): %v", dry, err)
		}
	}
	got := seen()
	if len(got) != 6 || !strings.HasPrefix(got[1], "GET /apis/apps/v1/namespaces/shop/replicasets?labelSelector=app%3Dweb") {
		t.Fatalf("requests %q", got)
	}
	dry, wet := got[2], got[5]
	for _, p := range []string{dry, wet} {
		if !strings.HasPrefix(p, "PATCH /apis/apps/v1/namespaces/shop/deployments/web?") || !strings.Contains(p, `"uid":"u1"`) ||
			!strings.Contains(p, `"$patch":"replace"`) || strings.Contains(p, "pod-template-hash") {
			t.Errorf("patch %q: want the UID and the template replaced, without the hash label", p)
		}
	}
	if !strings.Contains(dry, "dryRun=All") || strings.Contains(wet, "dryRun") {
		t.Errorf("dry run %q, undo %q: want dryRun=All on the first only", dry, wet)
	}
	if _, err := c.Undo(context.Background(), deploymentsGVR, "shop", "web", 1, "u2", false); !strings.Contains(fmtErr(err), "re-created") {
		t.Errorf("undo of another UID: %v, want a conflict", err)
	}

	ro, seenRO := rolloutServer(t)
	roCfg := readonly.Wrap(ro)
	c = &Cluster{cfg: roCfg, dyn: dynamic.NewForConfigOrDie(roCfg)}
	for _, dry := range []bool{true, false} {
		_, err := c.Undo(context.Background(), deploymentsGVR, "shop", "web", 1, "u1", dry)
		var refused *readonly.RefusedError
		if !errors.As(err, &refused) {
			t.Errorf("read-only undo (dry run %v): %v, want refused", dry, err)
		}
	}
	for _, r := range seenRO() {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("read-only: the server saw %q", r)
		}
	}
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
