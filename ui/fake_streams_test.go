package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"kscope/cluster"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// fakeStreams is the fake cluster's side of shells and port-forwards. Guarded by fakeCluster.mu.
type fakeStreams struct {
	// pods answers PodFor, by objectKey of the object asked about; without an entry a pod is its object
	// and anything else selects the pods labelled app=<its name> (as the fixture's deployment does).
	pods map[string]*corev1.Pod
	// execOutput is what a shell prints; execErr how it ends.
	execOutput string
	execErr    error
	// attachOutput is what an attached container writes; attachErr how the attachment ends, unless
	// attachHolds: then it lasts until its context ends (the user detaches) and ends with that error.
	// attachInput is what the attachment read of its stdin.
	attachOutput string
	attachErr    error
	attachHolds  bool
	attachInput  string
	// forwardErr, when set, answers every PortForward.
	forwardErr error
	// forwardPanic, when set, makes every PortForward panic with it (on the forward's goroutine).
	forwardPanic string
	forwards     []*fakeForward
}

// fakeForward is one running forward: ending it with end makes it fail with that error.
type fakeForward struct {
	req cluster.PortForwardRequest
	ctx context.Context
	end chan error
}

// PodFor answers from streams.pods, else from the stored pods.
func (c *fakeCluster) PodFor(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*corev1.Pod, error) {
	c.mu.Lock()
	p, ok := c.streams.pods[objectKey(gvr, ns, name)]
	c.mu.Unlock()
	if ok {
		return p.DeepCopy(), nil
	}
	if gvr == podsGVR {
		u, err := c.Get(ctx, gvr, ns, name)
		if err != nil {
			return nil, err
		}
		return toPod(u)
	}
	c.mu.Lock()
	rows := c.rows["pods"]
	c.mu.Unlock()
	for _, r := range rows {
		if r.Namespace == ns && r.Labels["app"] == name {
			if u, err := c.Get(ctx, podsGVR, ns, r.Name); err == nil {
				return toPod(u)
			}
		}
	}
	return nil, fmt.Errorf("%s %s: no pods match its selector", gvr.Resource, name)
}

// PodsFor answers the pod PodFor answers, alone; none when it finds none.
func (c *fakeCluster) PodsFor(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) ([]corev1.Pod, error) {
	pod, err := c.PodFor(ctx, gvr, ns, name)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return []corev1.Pod{*pod}, nil
}

func toPod(u *unstructured.Unstructured) (*corev1.Pod, error) {
	pod := &corev1.Pod{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, pod); err != nil {
		return nil, err
	}
	return pod, nil
}

// Logs answers no log: ui's tests read none (the logs screen, package ui/logview, has its own tests and
// fake cluster).
func (c *fakeCluster) Logs(context.Context, cluster.LogRequest) (io.ReadCloser, error) {
	return nil, errors.New("the ui tests' fake cluster serves no logs")
}

// Exec records the command, prints execOutput and ends with execErr; with writes set it sends the exec
// request through that client (the read-only transport refuses it).
func (c *fakeCluster) Exec(ctx context.Context, req cluster.ExecRequest) error {
	c.record(fmt.Sprintf("exec %s/%s %s %s tty=%v", req.Namespace, req.Pod, req.Container, strings.Join(req.Command, " "), req.TTY))
	if err := c.sendStream(ctx, req.Namespace, req.Pod, "exec"); err != nil {
		return err
	}
	c.mu.Lock()
	out, err := c.streams.execOutput, c.streams.execErr
	c.mu.Unlock()
	if req.Stdout != nil {
		_, _ = req.Stdout.Write([]byte(out))
	}
	return err
}

// Attach records the attachment, writes attachOutput and reads its stdin to the end (into attachInput),
// then ends with attachErr, or with attachHolds once ctx ends (10 s at most); with writes set it first sends the attach
// request through that client (the read-only transport refuses it).
func (c *fakeCluster) Attach(ctx context.Context, req cluster.AttachRequest) error {
	c.record(fmt.Sprintf("attach %s/%s %s stdin=%v tty=%v", req.Namespace, req.Pod, req.Container, req.Stdin != nil, req.TTY))
	if err := c.sendStream(ctx, req.Namespace, req.Pod, "attach"); err != nil {
		return err
	}
	c.mu.Lock()
	out, err, holds := c.streams.attachOutput, c.streams.attachErr, c.streams.attachHolds
	c.mu.Unlock()
	if req.Stdout != nil && out != "" {
		_, _ = req.Stdout.Write([]byte(out))
	}
	if req.Stdin != nil {
		in, _ := io.ReadAll(req.Stdin)
		c.mu.Lock()
		c.streams.attachInput += string(in)
		c.mu.Unlock()
	}
	if holds {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Second):
			return errors.New("held 10s: nobody detached")
		}
	}
	return err
}

// PortForward records the forward and keeps it running until ctx ends or the test ends it; local port 0
// becomes 40000 + the forward's number (nothing listens there: the tests connect to none).
func (c *fakeCluster) PortForward(ctx context.Context, req cluster.PortForwardRequest) (int, <-chan error, error) {
	c.record(fmt.Sprintf("port-forward %s/%s %d:%d", req.Namespace, req.Pod, req.LocalPort, req.PodPort))
	if err := c.sendStream(ctx, req.Namespace, req.Pod, "portforward"); err != nil {
		return 0, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.streams.forwardPanic; p != "" {
		panic(p)
	}
	if err := c.streams.forwardErr; err != nil {
		return 0, nil, err
	}
	f := &fakeForward{req: req, ctx: ctx, end: make(chan error, 1)}
	if f.req.LocalPort == 0 {
		f.req.LocalPort = 40000 + len(c.streams.forwards)
	}
	c.streams.forwards = append(c.streams.forwards, f)
	ended := make(chan error, 1)
	go func() {
		defer close(ended)
		select {
		case <-ctx.Done():
			ended <- nil
		case err := <-f.end:
			ended <- err
		}
	}()
	return f.req.LocalPort, ended, nil
}

// sendStream, with writes set, sends the stream's request (POST pods/NAME/sub) through it.
func (c *fakeCluster) sendStream(ctx context.Context, ns, pod, sub string) error {
	c.mu.Lock()
	writes := c.writes
	c.mu.Unlock()
	if writes == nil {
		return nil
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": pod, "namespace": ns}}}
	_, err := writes.Resource(podsGVR).Namespace(ns).Create(ctx, obj, metav1.CreateOptions{}, sub)
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("pod %s not found", pod)
	}
	return asRefused(err)
}

// forwardsStarted returns the forwards the UI started so far.
func (c *fakeCluster) forwardsStarted() []*fakeForward {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*fakeForward(nil), c.streams.forwards...)
}
