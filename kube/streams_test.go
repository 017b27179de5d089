package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/rest"

	"kscope/cluster"
	"kscope/kube/readonly"
)

// podServer serves a Running pod shop/web-1 and, for GET services/web and a pod list by label, a service
// selecting app=web and two pods of it (one Pending, one Running); it records every request.
func podServer(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	pod := func(name, phase string) string {
		return fmt.Sprintf(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"namespace":"shop","uid":"u-%s","labels":{"app":"web"}},`+
			`"spec":{"containers":[{"name":"web","ports":[{"containerPort":8080}]}]},"status":{"phase":%q}}`, name, name, phase)
	}
	var mu sync.Mutex
	var reqs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs = append(reqs, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/shop/pods/web-1":
			fmt.Fprint(w, pod("web-1", "Running"))
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/shop/pods/web-0":
			fmt.Fprint(w, pod("web-0", "Pending"))
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/shop/services/web":
			fmt.Fprint(w, `{"kind":"Service","apiVersion":"v1","metadata":{"name":"web","namespace":"shop"},`+
				`"spec":{"selector":{"app":"web"},"ports":[{"port":80,"targetPort":8080}]}}`)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/namespaces/shop/pods" && r.URL.Query().Get("labelSelector") == "app=web":
			fmt.Fprintf(w, `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[%s,%s]}`,
				pod("web-0", "Pending"), pod("web-1", "Running"))
		default:
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), reqs...)
	}
}

func testCluster(cfg *rest.Config) *Cluster {
	return &Cluster{cfg: cfg, dyn: dynamic.NewForConfigOrDie(cfg)}
}

// TestReadOnlyRefusesExecAndPortForward: with the read-only transport an exec, an attach and a port-forward
// fail with its refusal, and none of their requests reaches the server.
func TestReadOnlyRefusesExecAndPortForward(t *testing.T) {
	srv, requests := podServer(t)
	c := testCluster(readonly.Wrap(&rest.Config{Host: srv.URL}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := c.Exec(ctx, cluster.ExecRequest{Namespace: "shop", Pod: "web-1", Container: "web", Command: []string{"sh"},
		Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, TTY: true})
	if refused := (*readonly.RefusedError)(nil); !errors.As(err, &refused) {
		t.Errorf("exec: %v, want the read-only refusal", err)
	}
	err = c.Attach(ctx, cluster.AttachRequest{Namespace: "shop", Pod: "web-1", Container: "web",
		Stdin: strings.NewReader(""), Stdout: &strings.Builder{}, TTY: true})
	if refused := (*readonly.RefusedError)(nil); !errors.As(err, &refused) {
		t.Errorf("attach: %v, want the read-only refusal", err)
	}
	_, _, err = c.PortForward(ctx, cluster.PortForwardRequest{Namespace: "shop", Pod: "web-1", Address: "127.0.0.1", PodPort: 8080})
	if err == nil || !strings.Contains(err.Error(), "read-only mode") {
		t.Errorf("port-forward: %v, want the read-only refusal", err)
	}
	for _, r := range requests() {
		if strings.HasSuffix(r, "/exec") || strings.HasSuffix(r, "/attach") || strings.HasSuffix(r, "/portforward") {
			t.Errorf("request reached the server: %s", r)
		}
	}
}

// TestPodForPicksRunningPodOfService: a service gives the most active of the pods it selects (the running one
// before the pending one, as kubectl picks); a pod gives itself.
func TestPodForPicksRunningPodOfService(t *testing.T) {
	srv, _ := podServer(t)
	c := testCluster(&rest.Config{Host: srv.URL})
	svc := schema.GroupVersionResource{Version: "v1", Resource: "services"}
	pod, err := c.PodFor(context.Background(), svc, "shop", "web")
	if err != nil || pod.Name != "web-1" {
		t.Fatalf("PodFor(service web) = %v, %v; want the running pod web-1", pod, err)
	}
	pod, err = c.PodFor(context.Background(), podsGVR, "shop", "web-1")
	if err != nil || pod.Name != "web-1" || len(pod.Spec.Containers) != 1 {
		t.Fatalf("PodFor(pod web-1) = %v, %v", pod, err)
	}
	if _, err := c.PodFor(context.Background(), svc, "shop", "gone"); err == nil {
		t.Error("PodFor(a missing service) succeeded")
	}
}

// TestPortForwardRefusesPodNotRunning: a pod that is not running is refused before any stream is opened, in
// one line naming its phase.
func TestPortForwardRefusesPodNotRunning(t *testing.T) {
	srv, requests := podServer(t)
	c := testCluster(&rest.Config{Host: srv.URL})
	_, _, err := c.PortForward(context.Background(), cluster.PortForwardRequest{Namespace: "shop", Pod: "web-0", Address: "127.0.0.1", PodPort: 8080})
	if err == nil || err.Error() != "port-forward shop/web-0:8080: the pod is Pending, not running" {
		t.Errorf("port-forward to a pending pod: %v", err)
	}
	for _, r := range requests() {
		if strings.HasSuffix(r, "/portforward") {
			t.Errorf("request reached the server: %s", r)
		}
	}
}

// TestAttachAsksAsKubectl: Attach opens the pod's attach subresource (WebSocket first) with kubectl attach's
// query: the container, stdin when given, stdout, stderr only without a
// terminal, tty as asked.
func TestAttachAsksAsKubectl(t *testing.T) {
	for _, tt := range []struct {
		name string
		req  cluster.AttachRequest
		want string
	}{
		{"stdin and tty", cluster.AttachRequest{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, TTY: true},
			"container=web&stdin=true&stdout=true&tty=true"},
		{"output only", cluster.AttachRequest{Stdout: io.Discard, Stderr: io.Discard},
			"container=web&stderr=true&stdout=true"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				got = append(got, r.Method+" "+r.URL.Path+"?"+r.URL.RawQuery)
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusForbidden)
				fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403}`)
			}))
			defer srv.Close()
			req := tt.req
			req.Namespace, req.Pod, req.Container = "shop", "web-1", "web"
			err := testCluster(&rest.Config{Host: srv.URL}).Attach(context.Background(), req)
			if err == nil || !strings.HasPrefix(err.Error(), "attach shop/web-1 (web): ") {
				t.Errorf("attach refused by the server: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			path := "/api/v1/namespaces/shop/pods/web-1/attach?" + tt.want
			if len(got) == 0 || got[0] != "GET "+path || slices.ContainsFunc(got[1:], func(r string) bool { return r != "POST "+path }) {
				t.Errorf("requests %q, want GET (WebSocket), then POST (SPDY) at most, of %s", got, path)
			}
		})
	}
}

// TestPodsForListsWithoutWaiting: a service gives every pod it selects, the most active first (the running
// one before the pending one); a pod gives itself, and none when it does not exist (no error: a forward
// waits for it).
func TestPodsForListsWithoutWaiting(t *testing.T) {
	srv, _ := podServer(t)
	c := testCluster(&rest.Config{Host: srv.URL})
	svc := schema.GroupVersionResource{Version: "v1", Resource: "services"}
	pods, err := c.PodsFor(context.Background(), svc, "shop", "web")
	if err != nil || len(pods) != 2 || pods[0].Name != "web-1" || pods[1].Name != "web-0" {
		t.Fatalf("PodsFor(service web) = %v, %v; want web-1 then web-0", pods, err)
	}
	pods, err = c.PodsFor(context.Background(), podsGVR, "shop", "web-0")
	if err != nil || len(pods) != 1 || pods[0].Name != "web-0" {
		t.Fatalf("PodsFor(pod web-0) = %v, %v", pods, err)
	}
	pods, err = c.PodsFor(context.Background(), podsGVR, "shop", "gone")
	if err != nil || len(pods) != 0 {
		t.Errorf("PodsFor(a missing pod) = %v, %v; want none", pods, err)
	}
	if _, err := c.PodsFor(context.Background(), svc, "shop", "gone"); err == nil {
		t.Error("PodsFor(a missing service) succeeded")
	}
}

// TestWaitPodStops: a forward's pod stops serving it once it is being deleted, deleted, replaced by another
// pod of its name, or no longer running.
func TestWaitPodStops(t *testing.T) {
	running := func(uid string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{"name": "web-0", "namespace": "shop", "uid": uid},
			"status":   map[string]any{"phase": "Running"}}}
	}
	for _, tc := range []struct {
		name   string
		change func(res dynamic.ResourceInterface) error
		want   string
	}{
		{"being deleted", func(res dynamic.ResourceInterface) error {
			u := running("u-1")
			u.SetDeletionTimestamp(&metav1.Time{Time: time.Now()})
			_, err := res.Update(context.Background(), u, metav1.UpdateOptions{})
			return err
		}, "pod shop/web-0 is being deleted"},
		{"deleted", func(res dynamic.ResourceInterface) error {
			return res.Delete(context.Background(), "web-0", metav1.DeleteOptions{})
		}, "pod shop/web-0 was deleted"},
		{"replaced", func(res dynamic.ResourceInterface) error {
			_, err := res.Update(context.Background(), running("u-2"), metav1.UpdateOptions{})
			return err
		}, "pod shop/web-0 was deleted (another pod has its name now)"},
		{"failed", func(res dynamic.ResourceInterface) error {
			u := running("u-1")
			u.Object["status"] = map[string]any{"phase": "Failed"}
			_, err := res.Update(context.Background(), u, metav1.UpdateOptions{})
			return err
		}, "pod shop/web-0 is Failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dyn := dynamicfake.NewSimpleDynamicClient(runtime.NewScheme(), running("u-1"))
			c := &Cluster{cfg: &rest.Config{}, dyn: dyn}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			stopped := make(chan error, 1)
			go func() {
				stopped <- c.waitPodStops(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop", UID: "u-1"}})
			}()
			select {
			case err := <-stopped:
				t.Fatalf("stopped before any change: %v", err)
			case <-time.After(100 * time.Millisecond):
			}
			if err := tc.change(dyn.Resource(podsGVR).Namespace("shop")); err != nil {
				t.Fatal(err)
			}
			if err := <-stopped; err == nil || err.Error() != tc.want {
				t.Errorf("%v, want %q", err, tc.want)
			}
		})
	}
}
