//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	"kscope/cluster"
	"kscope/kube"
	"kscope/watch"
)

// podResourcesTimeout bounds each wait for the pod resources reader to see a change.
const podResourcesTimeout = 30 * time.Second

// TestPodResourceReader runs the reader behind the %CPU/R %CPU/L %MEM/R %MEM/L columns (WatchPodResources,
// which decodes the protobuf lists and watch streams of pods without decoding them whole) against the
// devcluster's apiserver, in its own namespace: pods listed before it starts (containers, a sidecar, an init
// container that does not count, a pod without resources), a pod created while it watches, a pod replaced by
// one with other resources (pods on kwok nodes cannot be resized), a pod deleted; and a second reader with a
// label selector, which sees only the pods it selects.
func TestPodResourceReader(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	always := corev1.ContainerRestartPolicyAlways
	q := resource.MustParse
	createResourcePod(ctx, t, cs, ns, "web", map[string]string{"tier": "front"}, corev1.PodSpec{
		InitContainers: []corev1.Container{
			{Name: "migrate", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": q("2"), "memory": q("1Gi")}}},
			{Name: "proxy", RestartPolicy: &always, Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{"cpu": q("25m"), "memory": q("32Mi")},
				Limits:   corev1.ResourceList{"cpu": q("100m")}}},
		},
		Containers: []corev1.Container{
			{Name: "main", Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{"cpu": q("100m"), "memory": q("64Mi")},
				Limits:   corev1.ResourceList{"cpu": q("500m"), "memory": q("256Mi")}}},
			{Name: "log", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": q("0.05")}}},
		},
	})
	createResourcePod(ctx, t, cs, ns, "bare", nil, corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}})

	kc, err := kube.Connect(ctx, configFlags(t, "admin", nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	spec := watch.Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true, Namespace: ns}
	r := kc.WatchPodResources(ctx, spec)
	spec.LabelSelector = "tier=front"
	front := kc.WatchPodResources(ctx, spec)
	for _, reader := range []cluster.PodResourceReader{r, front} {
		select {
		case <-reader.Synced():
		case <-ctx.Done():
			t.Fatal("a pod resources reader never synced")
		}
	}
	web := cluster.PodResources{RequestCPU: 175, LimitCPU: 600, RequestMemory: 96 << 20, LimitMemory: 256 << 20}
	expectPodResources(t, r, ns+"/web", &web)
	expectPodResources(t, r, ns+"/bare", &cluster.PodResources{})
	expectPodResources(t, front, ns+"/web", &web)
	expectPodResources(t, front, ns+"/bare", nil)

	createResourcePod(ctx, t, cs, ns, "late", map[string]string{"tier": "front"}, corev1.PodSpec{Containers: []corev1.Container{
		{Name: "main", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": q("1.5"), "memory": q("1Gi")}}}}})
	late := cluster.PodResources{RequestCPU: 1500, RequestMemory: 1 << 30}
	expectPodResources(t, r, ns+"/late", &late)
	expectPodResources(t, front, ns+"/late", &late)

	deleteResourcePod(ctx, t, cs, ns, "web")
	createResourcePod(ctx, t, cs, ns, "web", map[string]string{"tier": "front"}, corev1.PodSpec{Containers: []corev1.Container{
		{Name: "main", Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{"cpu": q("2"), "memory": q("500Mi")}}}}})
	// (limits without requests: the apiserver defaults the requests to the limits)
	replaced := cluster.PodResources{RequestCPU: 2000, LimitCPU: 2000, RequestMemory: 500 << 20, LimitMemory: 500 << 20}
	expectPodResources(t, r, ns+"/web", &replaced)
	expectPodResources(t, front, ns+"/web", &replaced)

	deleteResourcePod(ctx, t, cs, ns, "bare")
	expectPodResources(t, r, ns+"/bare", nil)
	expectPodResources(t, r, ns+"/late", &late)
}

// createResourcePod creates a pod on kwok-node-0 with labels and spec (its containers get an image).
func createResourcePod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string, labels map[string]string,
	spec corev1.PodSpec) {
	t.Helper()
	spec.NodeName = "kwok-node-0"
	for _, cs := range [][]corev1.Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			cs[i].Image = "registry.example.com/" + cs[i].Name + ":1.0"
		}
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels}, Spec: spec}
	if _, err := cs.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create pod %s: %v", name, err)
	}
}

// deleteResourcePod deletes a pod at once and waits until the apiserver no longer has it.
func deleteResourcePod(ctx context.Context, t *testing.T, cs kubernetes.Interface, ns, name string) {
	t.Helper()
	if err := cs.CoreV1().Pods(ns).Delete(ctx, name, *metav1.NewDeleteOptions(0)); err != nil {
		t.Fatalf("delete pod %s: %v", name, err)
	}
	waitForSeen(t, podResourcesTimeout, "pod "+name+" is gone", func() (bool, string) {
		_, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
}

// expectPodResources waits until r has want for key (nil: until it has no pod of that key).
func expectPodResources(t *testing.T, r cluster.PodResourceReader, key string, want *cluster.PodResources) {
	t.Helper()
	waitForSeen(t, podResourcesTimeout, fmt.Sprintf("the reader has %s as %+v", key, want), func() (bool, string) {
		got, ok := r.Get(key)
		if want == nil {
			return !ok, fmt.Sprintf("%+v", got)
		}
		return ok && got == *want, fmt.Sprintf("%+v, %v", got, ok)
	})
}
