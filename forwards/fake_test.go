package forwards

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

// fakeCluster is the narrow Cluster of the tests: pods by name in namespace shop (every one found for the
// service web and any workload, as their selectors would, in the order they were added; by default labelled
// app=web and made by the ReplicaSet web-7d9 of the Deployment web), the objects Get reads (the service web,
// port 80 → target port http, selecting app=web; the deployment web, its ReplicaSet web-7d9, the StatefulSet
// db; each with a UID), and forwards that really listen on loopback and answer as their pod: a line
// "POD:PORT", then each line sent back. A forward asked for a UID the pod of that name lacks is refused.
// Deleting a pod ends its forwards, as kube's does; the connections through them stay open (the Forwarder
// must close them).
type fakeCluster struct {
	t  *testing.T
	wg sync.WaitGroup

	mu       sync.Mutex
	pods     []*corev1.Pod
	uids     int
	forwards []cluster.PortForwardRequest
	// live are the running forwards, by pod name.
	live map[string][]*fakeForward
	// refuse, when set, answers every PortForward.
	refuse error
	// endAtOnce makes every forward end as soon as it starts.
	endAtOnce bool
	// objects are what Get reads, by "resource/name".
	objects map[string]*unstructured.Unstructured
	// panicOnPods, when set, is what PodsFor panics with (a bug on a forward's goroutine).
	panicOnPods any
}

type fakeForward struct {
	ln  net.Listener
	end chan error
}

func newFake(t *testing.T) *fakeCluster {
	c := &fakeCluster{t: t, live: map[string][]*fakeForward{}, objects: map[string]*unstructured.Unstructured{}}
	c.put("services", "web", "uid-svc-web", nil, map[string]any{"selector": map[string]any{"app": "web"},
		"ports": []any{map[string]any{"name": "http", "port": int64(80), "targetPort": "http"}}})
	c.put("deployments", "web", "uid-deploy-web", nil, nil)
	c.put("replicasets", "web-7d9", "uid-rs-web-7d9", ownedBy("Deployment", "web", "uid-deploy-web"), nil)
	c.put("statefulsets", "db", "uid-sts-db", nil, nil)
	return c
}

// put stores (or re-creates) the object resource/name that Get reads, with uid, its controller owner (nil:
// none) and spec.
func (c *fakeCluster) put(resource, name, uid string, owner *metav1.OwnerReference, spec map[string]any) {
	u := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": name, "namespace": "shop"}}}
	if spec != nil {
		u.Object["spec"] = spec
	}
	u.SetAPIVersion("apps/v1")
	if resource == "services" {
		u.SetAPIVersion("v1")
	}
	u.SetUID(types.UID(uid))
	if owner != nil {
		u.SetOwnerReferences([]metav1.OwnerReference{*owner})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects[resource+"/"+name] = u
}

// ownedBy is a controller owner reference to the apps/v1 object kind name of uid.
func ownedBy(kind, name, uid string) *metav1.OwnerReference {
	yes := true
	return &metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: types.UID(uid), Controller: &yes}
}

// podOption changes a pod addPod makes.
type podOption func(*corev1.Pod)

// controlledBy makes the pod's controller owner ref (nil: none).
func controlledBy(ref *metav1.OwnerReference) podOption {
	return func(p *corev1.Pod) {
		p.OwnerReferences = nil
		if ref != nil {
			p.OwnerReferences = []metav1.OwnerReference{*ref}
		}
	}
}

// labelled gives the pod these labels instead of app=web.
func labelled(l map[string]string) podOption { return func(p *corev1.Pod) { p.Labels = l } }

// addPod adds (or replaces: another UID) a running pod with container port http = port, labelled app=web and
// made by the ReplicaSet web-7d9 unless opts say otherwise; ready says its Ready condition.
func (c *fakeCluster) addPod(name string, port int32, ready bool, opts ...podOption) *corev1.Pod {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.uids++
	cond := corev1.ConditionFalse
	if ready {
		cond = corev1.ConditionTrue
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop", UID: types.UID(fmt.Sprint("uid-", c.uids)),
		Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: port}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: cond}}}}
	pod.OwnerReferences = []metav1.OwnerReference{*ownedBy("ReplicaSet", "web-7d9", "uid-rs-web-7d9")}
	for _, o := range opts {
		o(pod)
	}
	c.pods = slices.DeleteFunc(c.pods, func(p *corev1.Pod) bool { return p.Name == name })
	c.pods = append(c.pods, pod)
	return pod.DeepCopy()
}

// deletePod removes a pod and ends its forwards with "pod shop/NAME was deleted".
func (c *fakeCluster) deletePod(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pods = slices.DeleteFunc(c.pods, func(p *corev1.Pod) bool { return p.Name == name })
	for _, f := range c.live[name] {
		select {
		case f.end <- fmt.Errorf("pod shop/%s was deleted", name):
		default:
		}
	}
}

// started returns the forwards asked for so far.
func (c *fakeCluster) started() []cluster.PortForwardRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.forwards)
}

func (c *fakeCluster) PodsFor(_ context.Context, gvr schema.GroupVersionResource, ns, name string) ([]corev1.Pod, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.panicOnPods != nil {
		panic(c.panicOnPods)
	}
	var out []corev1.Pod
	for _, p := range c.pods {
		if ns == "shop" && (gvr != podsGVR || p.Name == name) {
			out = append(out, *p.DeepCopy())
		}
	}
	return out, nil
}

func (c *fakeCluster) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.objects[gvr.Resource+"/"+name]
	if !ok || ns != "shop" {
		return nil, fmt.Errorf("%s %s/%s not found", gvr.Resource, ns, name)
	}
	return u.DeepCopy(), nil
}

// PortForward listens on a loopback port and answers as the pod until the pod is deleted or ctx ends.
func (c *fakeCluster) PortForward(ctx context.Context, req cluster.PortForwardRequest) (int, <-chan error, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forwards = append(c.forwards, req)
	if c.refuse != nil {
		return 0, nil, c.refuse
	}
	i := slices.IndexFunc(c.pods, func(p *corev1.Pod) bool { return p.Name == req.Pod })
	if i < 0 {
		return 0, nil, fmt.Errorf("port-forward shop/%s:%d: pod not found", req.Pod, req.PodPort)
	}
	if req.UID != "" && c.pods[i].UID != req.UID {
		return 0, nil, fmt.Errorf("port-forward shop/%s:%d: pod shop/%s was re-created (uid changed)", req.Pod, req.PodPort, req.Pod)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(req.Address, "0"))
	if err != nil {
		return 0, nil, err
	}
	f := &fakeForward{ln: ln, end: make(chan error, 1)}
	if c.endAtOnce {
		f.end <- errors.New("the stream to the pod was lost")
	}
	c.live[req.Pod] = append(c.live[req.Pod], f)
	ended := make(chan error, 1)
	c.wg.Add(2)
	go func() {
		defer c.wg.Done()
		c.serve(ln, fmt.Sprintf("%s:%d", req.Pod, req.PodPort))
	}()
	go func() {
		defer c.wg.Done()
		defer close(ended)
		var err error
		select {
		case <-ctx.Done():
		case err = <-f.end:
		}
		_ = ln.Close()
		c.mu.Lock()
		c.live[req.Pod] = slices.DeleteFunc(c.live[req.Pod], func(g *fakeForward) bool { return g == f })
		c.mu.Unlock()
		ended <- err
	}()
	return ln.Addr().(*net.TCPAddr).Port, ended, nil
}

// serve answers each connection as the pod who: its name, then an echo.
func (c *fakeCluster) serve(ln net.Listener, who string) {
	for {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			defer conn.Close()
			if _, err := fmt.Fprintln(conn, who); err != nil {
				return
			}
			_, _ = io.Copy(conn, conn)
		}()
	}
}

// fastTiming is the timing of the tests: short waits.
func fastTiming() timing {
	return timing{minBackoff: 10 * time.Millisecond, maxBackoff: 40 * time.Millisecond, attempt: 5 * time.Second,
		gap: 5 * time.Second}
}

// client is one connection to a forward: it reads the pod's greeting and echoes.
type client struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

// dial connects to the forward at addr and returns the pod's greeting ("POD:PORT").
func dial(t *testing.T, addr string) (*client, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", addr, err)
	}
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	c := &client{t: t, conn: conn, r: bufio.NewReader(conn)}
	hello, err := c.r.ReadString('\n')
	if err != nil {
		t.Fatalf("greeting through %s: %v", addr, err)
	}
	return c, strings.TrimSpace(hello)
}

// echo sends a line and returns what comes back (an error when the connection failed).
func (c *client) echo(line string) (string, error) {
	if _, err := fmt.Fprintln(c.conn, line); err != nil {
		return "", err
	}
	got, err := c.r.ReadString('\n')
	return strings.TrimSpace(got), err
}
