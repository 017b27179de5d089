package kube

import (
	"context"
	"fmt"
	"net/url"

	corev1 "k8s.io/api/core/v1"
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
	core, err := corev1client.NewForConfig(c.cfg)
	if err != nil {
		return fmt.Errorf("exec %s/%s: %w", req.Namespace, req.Pod, err)
	}
	opts := &corev1.PodExecOptions{Container: req.Container, Command: req.Command,
		Stdin: req.Stdin != nil, Stdout: req.Stdout != nil, Stderr: req.Stderr != nil && !req.TTY, TTY: req.TTY}
	u := core.RESTClient().Post().Resource("pods").Namespace(req.Namespace).Name(req.Pod).SubResource("exec").
		VersionedParams(opts, scheme.ParameterCodec).URL()
	exec, err := newExecutor(c.cfg, u)
	if err != nil {
		return fmt.Errorf("exec %s/%s: %w", req.Namespace, req.Pod, err)
	}
	stream := remotecommand.StreamOptions{Stdin: req.Stdin, Stdout: req.Stdout, Tty: req.TTY}
	if opts.Stderr {
		stream.Stderr = req.Stderr
	}
	if req.TTY && req.Sizes != nil {
		stream.TerminalSizeQueue = sizeQueue(req.Sizes)
	}
	if err := exec.StreamWithContext(ctx, stream); err != nil {
		return fmt.Errorf("exec %s/%s: %w", req.Namespace, req.Pod, err)
	}
	return nil
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
