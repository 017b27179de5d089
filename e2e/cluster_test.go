//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// TestSeededCluster checks what `devcluster seed` promises, through client-go: the widgets CRD with its
// printer columns, its instances with status, and Running pods of the seeded Deployments on kwok nodes.
func TestSeededCluster(t *testing.T) {
	parallel(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := restConfig(t, "admin")
	dyn := dynamic.NewForConfigOrDie(cfg)

	crd, err := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).
		Get(ctx, "widgets.shop.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get widgets CRD: %v", err)
	}
	versions, _, _ := unstructuredSlice(crd.Object, "spec", "versions")
	cols, _, _ := unstructuredSlice(versions[0].(map[string]any), "additionalPrinterColumns")
	types := map[string]bool{}
	wide := 0
	for _, c := range cols {
		col := c.(map[string]any)
		types[col["type"].(string)] = true
		if p, ok := col["priority"].(int64); ok && p > 0 {
			wide++
		}
	}
	for _, want := range []string{"integer", "number", "string", "boolean", "date"} {
		if !types[want] {
			t.Errorf("widgets CRD has no printer column of type %s (has %v)", want, types)
		}
	}
	if wide != 1 {
		t.Errorf("widgets CRD has %d priority>0 columns, want 1", wide)
	}

	widgets, err := dyn.Resource(schema.GroupVersionResource{Group: "shop.example.com", Version: "v1", Resource: "widgets"}).
		Namespace("shop").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list widgets: %v", err)
	}
	if len(widgets.Items) < 3 {
		t.Fatalf("got %d widgets in shop, want at least 3", len(widgets.Items))
	}
	for _, w := range widgets.Items {
		status, ok := w.Object["status"].(map[string]any)
		if !ok || status["ready"] == nil || status["builtAt"] == nil {
			t.Errorf("widget %s has no status.ready and status.builtAt: %v", w.GetName(), w.Object["status"])
		}
	}

	cs := kubernetes.NewForConfigOrDie(cfg)
	want := map[string]int{"frontend": 1, "api": 1} // at least one Running pod of each (churn may scale them)
	for {
		pods, err := cs.CoreV1().Pods("shop").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("list pods: %v", err)
		}
		running := map[string]int{}
		for _, p := range pods.Items {
			if p.Status.Phase == corev1.PodRunning && strings.HasPrefix(p.Spec.NodeName, "kwok-node-") {
				running[p.Labels["app"]]++
			}
		}
		if running["frontend"] >= want["frontend"] && running["api"] >= want["api"] {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("Running pods on kwok nodes in shop: %v, want at least %v", running, want)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func unstructuredSlice(obj map[string]any, fields ...string) ([]any, bool, error) {
	var cur any = obj
	for _, f := range fields {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, nil
		}
		if cur, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	s, ok := cur.([]any)
	return s, ok, nil
}

// TestVersionCommand checks `kscope version` against the devcluster and its errors for bad input.
func TestVersionCommand(t *testing.T) {
	parallel(t)
	out, errOut, code := runKscope(t, "version")
	if code != 0 || !strings.Contains(out, "Server Version: v1.37.2") {
		t.Fatalf("kscope version: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	out, errOut, code = runKscope(t, "--context", "no-such-context", "version")
	if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "no-such-context") {
		t.Fatalf("unknown context: exit %d, stdout %q, stderr %q; want one line naming the context and non-zero exit", code, out, errOut)
	}
	out, errOut, code = runKscope(t, "--server", "https://127.0.0.1:1", "--insecure-skip-tls-verify", "version")
	if code == 0 || !strings.Contains(errOut, "cannot reach the API server at https://127.0.0.1:1") || strings.Contains(errOut, "goroutine") {
		t.Fatalf("unreachable server: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
