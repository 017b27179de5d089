//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/discovery"
)

var (
	crdGVR        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

// TestAPIResourcesMatchesKubectl runs kscope api-resources and kubectl api-resources with the same flags and
// compares standard output byte for byte, and exit codes.
func TestAPIResourcesMatchesKubectl(t *testing.T) {
	serial(t, "compares the whole cluster's discovery with kubectl")
	flagSets := [][]string{
		{},
		{"-o", "wide"},
		{"-o", "name"},
		{"--namespaced=true"},
		{"--namespaced=false"},
		{"--namespaced=false", "-o", "wide"},
		{"--api-group=apps"},
		{"--api-group="},
		{"--api-group=shop.example.com", "-o", "wide"},
		{"--api-group=nothing.example.com"},
		{"--verbs=list,watch"},
		{"--verbs=create", "--namespaced=false"},
		{"--categories=all"},
		{"--categories=all", "-o", "name"},
		{"--sort-by=name"},
		{"--sort-by=kind", "-o", "wide"},
		{"--sort-by=kind", "--no-headers"},
		{"--no-headers"},
		{"--no-headers", "-o", "wide", "--sort-by=name"},
		{"--cached"},
		{"--cached", "-o", "wide", "--namespaced=false"},
	}
	for _, flags := range flagSets {
		t.Run(strings.Join(append([]string{"api-resources"}, flags...), " "), func(t *testing.T) {
			args := append([]string{"api-resources"}, flags...)
			// Other tests may add or remove CRDs meanwhile; a real difference persists for the whole minute.
			var want cmdResult
			waitForSeen(t, 60*time.Second, "kscope prints what kubectl prints", func() (bool, string) {
				want = runKubectl(t, args...)
				got := runKscopeResult(t, args...)
				return want.stdout == got.stdout && want.code == got.code, describeDiff(want, got)
			})
			if rows := strings.Count(want.stdout, "\n"); rows < 2 && !slices.Contains(flags, "--api-group=nothing.example.com") {
				t.Fatalf("kubectl printed %d lines; the comparison proves little:\n%s", rows, want.stdout)
			}
		})
	}
}

// TestCatalogFollowsCRDs checks that a running Catalog lists a new CRD by itself, resolves its names, and
// drops it once deleted; it logs how long each took (about 3 s on a quiet machine).
func TestCatalogFollowsCRDs(t *testing.T) {
	serial(t, "creates and deletes CRDs (cluster-wide discovery)")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cat := discovery.NewCatalog(configFlags(t, "admin", nil))
	if err := cat.Load(ctx); err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 1)
	defer cat.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})()
	runCtx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); cat.Run(runCtx) }()
	defer func() { stop(); wg.Wait() }()

	// The seeded CRD resolves by short name, kind and plural.group; built-ins as kubectl resolves them.
	for input, want := range map[string]string{
		"wd": "widgets.shop.example.com", "Widget": "widgets.shop.example.com", "widgets.shop.example.com": "widgets.shop.example.com",
		"deploy": "deployments.apps", "deployments.v1.apps": "deployments.apps", "po": "pods", "ev": "events",
	} {
		if r, err := cat.Resolve(context.Background(), input); err != nil || r.FullName() != want {
			t.Errorf("Resolve(%q) = %q, %v; want %s", input, r.FullName(), err, want)
		}
	}
	_, err := cat.Resolve(context.Background(), "podz")
	var nf *discovery.NotFoundError
	if !errors.As(err, &nf) || !slices.Contains(nf.Suggestions, "pods") {
		t.Errorf("Resolve(podz) = %v, want a NotFoundError suggesting pods", err)
	}

	group := "things-" + randomSuffix() + ".e2e.example.com"
	dyn := dynamic.NewForConfigOrDie(restConfig(t, "admin"))
	crd := thingCRD(group)
	created := time.Now()
	if _, err := dyn.Resource(crdGVR).Create(ctx, crd, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CRD: %v", err)
	}
	t.Cleanup(func() { deleteIgnoringNotFound(t, dyn.Resource(crdGVR), crd.GetName()) })
	waitForCatalog(t, cat, changed, created, "the catalog lists things."+group, func() bool { return hasResource(cat, group, "things") })
	if r, err := cat.Resolve(context.Background(), "thg."+group); err != nil || r.Kind != "Thing" || !r.Namespaced || r.Version != "v1" {
		t.Errorf("Resolve(thg.%s) = %+v, %v", group, r, err)
	}

	deleted := time.Now()
	if err := dyn.Resource(crdGVR).Delete(ctx, crd.GetName(), metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete CRD: %v", err)
	}
	waitForCatalog(t, cat, changed, deleted, "the catalog drops things."+group, func() bool { return !hasResource(cat, group, "things") })
}

// TestAPIResourcesWithBrokenAPIService registers an APIService whose Service does not exist. The aggregator
// marks its group-version stale; kubectl api-resources (through its disk cache) then lists every other
// resource and exits 0 without a word. kscope api-resources prints the same table with the same exit code
// and names the group-version on stderr, and Catalog.Unavailable lists it with the APIService's condition.
func TestAPIResourcesWithBrokenAPIService(t *testing.T) {
	serial(t, "registers a broken APIService (every client's discovery warns)")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ns := testNamespace(t)
	group := "broken-" + randomSuffix() + ".e2e.example.com"
	gv := group + "/v1alpha1"
	dyn := dynamic.NewForConfigOrDie(restConfig(t, "admin"))
	svc := brokenAPIService(group, ns)
	if _, err := dyn.Resource(apiServiceGVR).Create(ctx, svc, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create APIService: %v", err)
	}
	t.Cleanup(func() { deleteIgnoringNotFound(t, dyn.Resource(apiServiceGVR), svc.GetName()) })

	// Wait until the aggregator has marked the group-version stale and kscope prints what kubectl prints
	// (other tests may add or remove CRDs meanwhile; a real difference persists for the whole minute).
	var got, want cmdResult
	waitForSeen(t, 60*time.Second, "kscope reports "+gv+" unavailable and prints kubectl's table", func() (bool, string) {
		if got = runKscopeResult(t, "api-resources"); !strings.Contains(got.stderr, gv) {
			return false, fmt.Sprintf("kscope does not name %s; exit %d, stderr:\n%s", gv, got.code, got.stderr)
		}
		want = runKubectl(t, "api-resources")
		return got.stdout == want.stdout && got.code == want.code, "differs from kubectl:\n" + describeDiff(want, got)
	})
	t.Logf("kubectl: exit %d, stderr %q", want.code, want.stderr)
	t.Logf("kscope:  exit %d, stderr %q", got.code, got.stderr)
	for _, row := range []string{"\npods ", "\ndeployments ", "\nwidgets "} {
		if !strings.Contains(got.stdout, row) {
			t.Errorf("stdout lacks the %q row", strings.TrimSpace(row))
		}
	}
	wantLine := fmt.Sprintf(`Warning: %s is unavailable: stale GroupVersion discovery: %s (APIService v1alpha1.%s: ServiceNotFound: service/missing in %q is not present)`, gv, gv, group, ns)
	if !slices.Contains(strings.Split(got.stderr, "\n"), wantLine) {
		t.Errorf("stderr lacks %q:\n%s", wantLine, got.stderr)
	}
	cached := runKscopeResult(t, "api-resources", "--cached")
	if !strings.Contains(cached.stderr, wantLine) || cached.code != want.code {
		t.Errorf("--cached: exit %d, stderr %q", cached.code, cached.stderr)
	}

	cat := discovery.NewCatalog(configFlags(t, "admin", nil))
	if err := cat.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	unavailable := cat.Unavailable()
	t.Logf("Catalog.Unavailable() = %#v", unavailable)
	if !slices.ContainsFunc(unavailable, func(u discovery.Unavailable) bool {
		return u.GroupVersion == gv && u.Stale && strings.Contains(u.Reason, "ServiceNotFound")
	}) {
		t.Errorf("Unavailable() = %v, want %s, stale, with the APIService's reason", unavailable, gv)
	}
	if !hasResource(cat, "", "pods") || !hasResource(cat, "shop.example.com", "widgets") {
		t.Error("the catalog lost resources of healthy groups")
	}
}

// TestCatalogWithoutWatchPermission runs a Catalog as the viewer, who may read discovery but not list CRDs
// or APIServices: it loads, and Run neither watches nor retries the refused requests: once both are
// refused, 4 s more of Run add no request but discovery's.
func TestCatalogWithoutWatchPermission(t *testing.T) {
	parallel(t)
	var other atomic.Int64
	var paths sync.Map
	count := func(r *http.Request) {
		if !isDiscoveryPath(r.URL.Path) {
			other.Add(1)
			paths.Store(r.Method+" "+r.URL.String(), true)
		}
	}
	cat := discovery.NewCatalog(configFlags(t, "viewer", count))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := cat.Load(ctx); err != nil {
		t.Fatalf("viewer Load: %v", err)
	}
	if !hasResource(cat, "", "pods") {
		t.Fatal("viewer catalog lacks pods")
	}
	requests := func() (seen []string) {
		paths.Range(func(k, _ any) bool { seen = append(seen, k.(string)); return true })
		return seen
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); cat.Run(runCtx) }()
	defer func() { stop(); <-done }()
	waitForSeen(t, 60*time.Second, "Run has asked for CRDs and APIServices", func() (bool, string) {
		seen := fmt.Sprint(requests())
		return strings.Contains(seen, "/customresourcedefinitions") && strings.Contains(seen, "/apiservices"), seen
	})
	time.Sleep(4 * time.Second) // the measurement window: a retry or a watch would show in it
	stop()
	<-done
	t.Logf("non-discovery requests of Run, up to 4 s after the refused ones: %d %v", other.Load(), requests())
	if n := other.Load(); n > 2 {
		t.Errorf("Run made %d non-discovery requests (want at most one refused probe per watched resource): %v", n, requests())
	}
}

// BenchmarkCatalogResolve measures Resolve on a loaded catalog (kubectl's disk-cached discovery and
// RESTMapper underneath) for a short name, a plural.group and a CRD kind.
func BenchmarkCatalogResolve(b *testing.B) {
	cat := discovery.NewCatalog(configFlags(b, "admin", nil))
	if err := cat.Load(context.Background()); err != nil {
		b.Fatal(err)
	}
	inputs := []string{"deploy", "deployments.apps", "Widget"}
	for _, in := range inputs { // warm the RESTMapper
		if _, err := cat.Resolve(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := cat.Resolve(context.Background(), inputs[i%len(inputs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// configFlags returns kubectl-style flags for the devcluster context, with a private discovery cache; each
// request is passed to observe when it is non-nil.
func configFlags(t testing.TB, contextName string, observe func(*http.Request)) *genericclioptions.ConfigFlags {
	f := genericclioptions.NewConfigFlags(true)
	kc, cacheDir := kubeconfig(), t.TempDir()
	f.KubeConfig, f.Context, f.CacheDir = &kc, &contextName, &cacheDir
	if observe != nil {
		f.WrapConfigFn = func(c *rest.Config) *rest.Config {
			c.Wrap(func(rt http.RoundTripper) http.RoundTripper {
				return roundTripFunc(func(r *http.Request) (*http.Response, error) { observe(r); return rt.RoundTrip(r) })
			})
			return c
		}
	}
	return f
}

// isDiscoveryPath tells whether p is a discovery document: /api, /apis, /version, /api/v1 or /apis/g/v.
func isDiscoveryPath(p string) bool {
	switch {
	case p == "/api", p == "/apis", p == "/version", p == "/api/v1":
		return true
	case strings.HasPrefix(p, "/apis/"):
		return strings.Count(p, "/") == 3
	}
	return false
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// waitForCatalog waits up to 60 s from since until cond (what) holds, re-checking on each catalog
// notification, and logs how long it took.
func waitForCatalog(t *testing.T, cat *discovery.Catalog, changed <-chan struct{}, since time.Time, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(time.Until(since.Add(60 * time.Second)))
	defer deadline.Stop()
	for !cond() {
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("timed out after 60 s waiting until %s; the catalog lists %d resources", what, len(cat.Resources()))
		}
	}
	t.Logf("catalog changed %v after the API call", time.Since(since).Round(time.Millisecond))
}

func hasResource(cat *discovery.Catalog, group, name string) bool {
	return slices.ContainsFunc(cat.Resources(), func(r discovery.Resource) bool { return r.Group == group && r.Name == name })
}

func thingCRD(group string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": "things." + group},
		"spec": map[string]any{
			"group": group,
			"scope": "Namespaced",
			"names": map[string]any{"plural": "things", "singular": "thing", "kind": "Thing", "shortNames": []any{"thg"}},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
			}},
		},
	}}
}

func brokenAPIService(group, namespace string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1",
		"kind":       "APIService",
		"metadata":   map[string]any{"name": "v1alpha1." + group},
		"spec": map[string]any{
			"group": group, "version": "v1alpha1",
			"service":               map[string]any{"namespace": namespace, "name": "missing", "port": int64(443)},
			"groupPriorityMinimum":  int64(1000),
			"versionPriority":       int64(15),
			"insecureSkipTLSVerify": true,
		},
	}}
}

func deleteIgnoringNotFound(t *testing.T, client dynamic.ResourceInterface, name string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := client.Delete(ctx, name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete %s: %v", name, err)
	}
}

// cmdResult is one run of a command.
type cmdResult struct {
	stdout, stderr string
	code           int
}

// runKubectl runs kubectl against the devcluster; unlike kubectl(), a non-zero exit is a result, not a failure.
func runKubectl(t *testing.T, args ...string) cmdResult {
	t.Helper()
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", kubeconfig()}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		t.Fatalf("run kubectl: %v", err)
	}
	return cmdResult{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

func runKscopeResult(t *testing.T, args ...string) cmdResult {
	t.Helper()
	stdout, stderr, code := runKscope(t, args...)
	return cmdResult{stdout, stderr, code}
}

// errorLine returns kubectl's "error: …" line from its stderr (klog lines aside).
func errorLine(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "error: ") {
			return line
		}
	}
	return ""
}

// describeDiff shows the first differing line of two outputs and both exit codes.
func describeDiff(want, got cmdResult) string {
	w, g := strings.Split(want.stdout, "\n"), strings.Split(got.stdout, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n kubectl: %q\n  kscope: %q\nexit codes: kubectl %d, kscope %d\nkscope stderr: %s",
				i+1, wl, gl, want.code, got.code, got.stderr)
		}
	}
	return fmt.Sprintf("exit codes: kubectl %d, kscope %d\nkubectl stderr: %s\nkscope stderr: %s", want.code, got.code, want.stderr, got.stderr)
}
