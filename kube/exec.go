package kube

import (
	"context"
	"fmt"
	"io"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/httpstream"
	"k8s.io/client-go/kubernetes/scheme"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"

	"kscope/cluster"
)

// Exec implements cluster.Streams as `kubectl exec` does: a WebSocket executor, falling back to SPDY when the
// server (or a proxy on the way) cannot upgrade to WebSocket. Safe for concurrent use.
func (c *Cluster) Exec(ctx context.Context, req cluster.ExecRequest) error {
	opts := &corev1.PodExecOptions{Container: req.Container, Command: req.Command,
		Stdin: req.Stdin != nil, Stdout: req.Stdout != nil, Stderr: req.Stderr != nil && !req.TTY, TTY: req.TTY}
	s := streamOptions(req.Stdin, req.Stdout, req.Stderr, req.TTY, req.Sizes)
	if err := c.streamPod(ctx, req.Namespace, req.Pod, "exec", opts, s); err != nil {
		return fmt.Errorf("exec %s/%s: %w", req.Namespace, req.Pod, err)
	}
	return nil
}

// Attach implements cluster.Streams as `kubectl attach` does: the pod's attach subresource through exec's
// executor (WebSocket, falling back to SPDY). Safe for concurrent use.
func (c *Cluster) Attach(ctx context.Context, req cluster.AttachRequest) error {
	opts := &corev1.PodAttachOptions{Container: req.Container,
		Stdin: req.Stdin != nil, Stdout: req.Stdout != nil, Stderr: req.Stderr != nil && !req.TTY, TTY: req.TTY}
	s := streamOptions(req.Stdin, req.Stdout, req.Stderr, req.TTY, req.Sizes)
	if err := c.streamPod(ctx, req.Namespace, req.Pod, "attach", opts, s); err != nil {
		return fmt.Errorf("attach %s/%s (%s): %w", req.Namespace, req.Pod, req.Container, err)
	}
	return nil
}

// streamPod opens the subresource sub (exec, attach) of pod with params as its query and runs s over it
// until the stream ends or ctx does.
func (c *Cluster) streamPod(ctx context.Context, namespace, pod, sub string, params runtime.Object, s remotecommand.StreamOptions) error {
	core, err := corev1client.NewForConfig(c.cfg)
	if err != nil {
		return err
	}
	u := core.RESTClient().Post().Resource("pods").Namespace(namespace).Name(pod).SubResource(sub).
		VersionedParams(params, scheme.ParameterCodec).URL()
	exec, err := newExecutor(c.cfg, u)
	if err != nil {
		return err
	}
	return exec.StreamWithContext(ctx, s)
}

// streamOptions are remotecommand's options for a request's streams: stderr only without a terminal (which
// merges it), the size queue only with one.
func streamOptions(stdin io.Reader, stdout, stderr io.Writer, tty bool, sizes func() *cluster.TerminalSize) remotecommand.StreamOptions {
	s := remotecommand.StreamOptions{Stdin: stdin, Stdout: stdout, Tty: tty}
	if stderr != nil && !tty {
		s.Stderr = stderr
	}
	if tty && sizes != nil {
		s.TerminalSizeQueue = sizeQueue(sizes)
	}
	return s
}

// newExecutor is kubectl's executor: WebSocket first, SPDY when the upgrade fails.
func newExecutor(cfg *rest.Config, u *url.URL) (remotecommand.Executor, error) {
	spdy, err := remotecommand.NewSPDYExecutor(cfg, "POST", u)
	if err != nil {
		return nil, err
	}
	// WebSocket must be GET (RFC 6455 section 4.1).
	ws, err := remotecommand.NewWebSocketExecutor(cfg, "GET", u.String())
	if err != nil {
		return nil, err
	}
	return remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
}

// sizeQueue adapts cluster.ExecRequest.Sizes to remotecommand's TerminalSizeQueue.
type sizeQueue func() *cluster.TerminalSize

// Next returns the next size, nil when there are no more.
func (q sizeQueue) Next() *remotecommand.TerminalSize {
	s := q()
	if s == nil {
		return nil
	}
	return &remotecommand.TerminalSize{Width: s.Width, Height: s.Height}
}
