package kube

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"helm.sh/helm/v4/pkg/action"
	helmkube "helm.sh/helm/v4/pkg/kube"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
)

// helmGroupResource names the storage of a release in the errors it causes.
var helmGroupResource = schema.GroupResource{Group: "helm.sh", Resource: "releases"}

// HelmRollback implements cluster.Helm with Helm's rollback action over this connection's kubeconfig flags
// (their read-only wrap included).
func (c *Cluster) HelmRollback(ctx context.Context, r cluster.HelmRelease, revision int) error {
	cfg, err := c.helmAction(ctx, r)
	if err != nil {
		return err
	}
	rb := action.NewRollback(cfg)
	rb.Version = revision
	rb.Timeout = cluster.HelmTimeout
	rb.WaitStrategy = helmkube.HookOnlyStrategy
	rb.ServerSideApply = "auto"
	if err := rb.Run(r.Name); err != nil {
		return fmt.Errorf("helm rollback %s/%s to revision %d: %w", r.Namespace, r.Name, revision, err)
	}
	return nil
}

// HelmUninstall implements cluster.Helm with Helm's uninstall action, as HelmRollback.
func (c *Cluster) HelmUninstall(ctx context.Context, r cluster.HelmRelease, keepHistory bool) (string, error) {
	cfg, err := c.helmAction(ctx, r)
	if err != nil {
		return "", err
	}
	un := action.NewUninstall(cfg)
	un.KeepHistory = keepHistory
	un.Timeout = cluster.HelmTimeout
	un.WaitStrategy = helmkube.HookOnlyStrategy
	un.DeletionPropagation = "background"
	res, err := un.Run(r.Name)
	if err != nil {
		return "", fmt.Errorf("helm uninstall %s/%s: %w", r.Namespace, r.Name, err)
	}
	if res == nil {
		return "", nil
	}
	return res.Info, nil
}

// helmAction is Helm's action configuration for r's namespace and driver over the connection's flags, its
// logs dropped (the terminal is kscope's), once r's precondition holds: the release's latest revision is still
// r.Latest (else a Conflict, nothing written).
func (c *Cluster) helmAction(ctx context.Context, r cluster.HelmRelease) (*action.Configuration, error) {
	if c.flags == nil {
		return nil, errors.New("helm: this connection has no kubeconfig flags")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := cfg.Init(c.flags, r.Namespace, r.Driver); err != nil {
		return nil, fmt.Errorf("helm %s/%s: %w", r.Namespace, r.Name, err)
	}
	if kc, ok := cfg.KubeClient.(*helmkube.Client); ok {
		kc.Namespace = r.Namespace
	}
	last, err := cfg.Releases.Last(r.Name)
	if err != nil {
		return nil, fmt.Errorf("helm %s/%s: read the latest revision: %w", r.Namespace, r.Name, err)
	}
	rel, ok := last.(*rspb.Release)
	if !ok {
		return nil, fmt.Errorf("helm %s/%s: stored as %T, not a Helm v1 release", r.Namespace, r.Name, last)
	}
	if rel.Version != r.Latest {
		return nil, apierrors.NewConflict(helmGroupResource, r.Name,
			fmt.Errorf("its latest revision is %d now, not %d as shown", rel.Version, r.Latest))
	}
	return cfg, nil
}
