package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/cluster"
)

// metricsServer serves metrics.k8s.io's pods and nodes lists and the nodes list, as metrics-server and the
// apiserver answer them; a path it does not know is a 503 (the APIService unavailable).
func metricsServer(t *testing.T) *Cluster {
	t.Helper()
	bodies := map[string]string{
		"/apis/metrics.k8s.io/v1beta1/namespaces/shop/pods": `{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[
			{"metadata":{"name":"web","namespace":"shop"},"window":"10s","containers":[
				{"name":"a","usage":{"cpu":"41998543n","memory":"40Mi"}},
				{"name":"b","usage":{"cpu":"2000001n","memory":"2097152"}}]},
			{"metadata":{"name":"idle","namespace":"shop"},"window":"10s","containers":[]}]}`,
		"/apis/metrics.k8s.io/v1beta1/nodes": `{"kind":"NodeMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[
			{"metadata":{"name":"n0"},"window":"10s","usage":{"cpu":"255m","memory":"1Gi"}},
			{"metadata":{"name":"gone"},"window":"10s","usage":{"cpu":"1m","memory":"1Mi"}}]}`,
		"/api/v1/nodes": `{"kind":"NodeList","apiVersion":"v1","items":[
			{"metadata":{"name":"n0"},"status":{"allocatable":{"cpu":"2","memory":"4Gi","pods":"110"}}},
			{"metadata":{"name":"n1"},"status":{"allocatable":{"cpu":"2","memory":"4Gi"}}}]}`,
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		body, ok := bodies[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server is currently unable to handle the request","reason":"ServiceUnavailable","code":503}`)
			return
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ts.Close)
	cfg := &rest.Config{Host: ts.URL}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &Cluster{cfg: cfg, dyn: dyn}
}

// TestPodMetrics: a pod's usage is the sum of its containers' quantities, rounded only when printed (as
// kubectl top pods: 41998543n + 2000001n is 44m, where rounding each first would give 45m).
func TestPodMetrics(t *testing.T) {
	c := metricsServer(t)
	got, err := c.PodMetrics(context.Background(), "shop", "")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{"shop/web": {44, 42 << 20}, "shop/idle": {0, 0}}
	if len(got) != len(want) {
		t.Fatalf("%d pods, want %d: %v", len(got), len(want), got)
	}
	for _, u := range got {
		w := want[u.Namespace+"/"+u.Name]
		if u.CPU.MilliValue() != w[0] || u.Memory.Value() != w[1] {
			t.Errorf("%s/%s: cpu %dm memory %d, want %dm %d", u.Namespace, u.Name, u.CPU.MilliValue(), u.Memory.Value(), w[0], w[1])
		}
	}
	if _, err := c.PodMetrics(context.Background(), "other", ""); err == nil {
		t.Error("a failing metrics API gave no error")
	}
}

// TestNodeMetrics: usage with each node's allocatable; a node that metrics reports but the list lacks has
// none.
func TestNodeMetrics(t *testing.T) {
	got, err := metricsServer(t).NodeMetrics(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d nodes, want 2: %v", len(got), got)
	}
	n0, gone := got[0], got[1]
	if n0.Name != "n0" || n0.CPU.MilliValue() != 255 || !n0.HasAllocatable || n0.AllocatableCPU.MilliValue() != 2000 ||
		n0.AllocatableMemory.Value() != 4<<30 {
		t.Errorf("n0: %+v", n0)
	}
	if gone.Name != "gone" || gone.HasAllocatable {
		t.Errorf("gone: %+v", gone)
	}
}

func TestSumPodResources(t *testing.T) {
	q := resource.MustParse
	always := corev1.ContainerRestartPolicyAlways
	res := func(req, lim corev1.ResourceList) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{Requests: req, Limits: lim}
	}
	tests := []struct {
		name string
		spec corev1.PodSpec
		want cluster.PodResources
	}{
		{"nothing set", corev1.PodSpec{Containers: []corev1.Container{{Name: "a"}}}, cluster.PodResources{}},
		{"containers add up, before rounding", corev1.PodSpec{Containers: []corev1.Container{
			{Resources: res(corev1.ResourceList{"cpu": q("100m"), "memory": q("64Mi")}, corev1.ResourceList{"cpu": q("0.5")})},
			{Resources: res(corev1.ResourceList{"cpu": q("0.4m")}, corev1.ResourceList{"memory": q("1Gi")})},
			{Resources: res(corev1.ResourceList{"cpu": q("0.4m")}, nil)},
		}}, cluster.PodResources{RequestCPU: 101, LimitCPU: 500, RequestMemory: 64 << 20, LimitMemory: 1 << 30}},
		{"sidecars count, other init containers do not", corev1.PodSpec{
			InitContainers: []corev1.Container{
				{Name: "migrate", Resources: res(corev1.ResourceList{"cpu": q("2")}, nil)},
				{Name: "proxy", RestartPolicy: &always, Resources: res(corev1.ResourceList{"cpu": q("50m")}, corev1.ResourceList{"cpu": q("100m")})},
			},
			Containers: []corev1.Container{{Resources: res(corev1.ResourceList{"cpu": q("200m")}, nil)}},
		}, cluster.PodResources{RequestCPU: 250, LimitCPU: 100}},
	}
	for _, tt := range tests {
		if got := sumPodResources(&tt.spec); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestKeepPodResources: the informer keeps a small object with the pod's key and its sums; tombstones pass.
func TestKeepPodResources(t *testing.T) {
	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Image: "nginx",
		Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("10m")}}}}}}
	pod.Name, pod.Namespace, pod.ResourceVersion, pod.Labels = "web", "shop", "7", map[string]string{"app": "web"}
	obj, err := keepPodResources(pod)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := obj.(*podResourceObject)
	if !ok {
		t.Fatalf("transformed to %T", obj)
	}
	if o.Name != "web" || o.Namespace != "shop" || o.ResourceVersion != "7" || o.Labels != nil || o.resources.RequestCPU != 10 {
		t.Errorf("kept %+v", o)
	}
	if cp := o.DeepCopyObject().(*podResourceObject); cp == o || cp.resources != o.resources || cp.Name != "web" {
		t.Errorf("deep copy %+v", cp)
	}
	tomb := "not a pod"
	if got, _ := keepPodResources(tomb); got != tomb {
		t.Errorf("a non-pod became %v", got)
	}
}

// TestMetricsUserAgent: the metrics client names kscope as its other clients do (client-go's default user
// agent), not net/http's, so that the server's audit log counts its requests with kscope's.
func TestMetricsUserAgent(t *testing.T) {
	agents := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		agents <- r.UserAgent()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"kind":"PodMetricsList","apiVersion":"metrics.k8s.io/v1beta1","items":[]}`)
	}))
	t.Cleanup(ts.Close)
	c := &Cluster{cfg: &rest.Config{Host: ts.URL}}
	if _, err := c.PodMetrics(context.Background(), "shop", ""); err != nil {
		t.Fatal(err)
	}
	if got, want := <-agents, rest.DefaultKubernetesUserAgent(); got != want {
		t.Errorf("user agent %q, want %q", got, want)
	}
}
