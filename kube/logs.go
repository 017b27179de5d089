package kube

import (
	"context"
	"fmt"
	"io"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/cluster"
)

// Logs implements cluster.Streams with a pods/log request (kubectl logs); errors are worded by
// DescribeServerError.
func (c *Cluster) Logs(ctx context.Context, req cluster.LogRequest) (io.ReadCloser, error) {
	opts := &corev1.PodLogOptions{
		Container:  req.Container,
		Follow:     req.Follow,
		Previous:   req.Previous,
		Timestamps: req.Timestamps,
	}
	if req.TailLines > 0 {
		opts.TailLines = &req.TailLines
	}
	if !req.Since.IsZero() {
		opts.SinceTime = &metav1.Time{Time: req.Since}
	} else if req.SinceSeconds > 0 {
		opts.SinceSeconds = &req.SinceSeconds
	}
	rc, err := c.core.Pods(req.Namespace).GetLogs(req.Pod, opts).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("logs of %s/%s: %w", req.Pod, req.Container, DescribeServerError(c.cfg.Host, err))
	}
	return rc, nil
}
