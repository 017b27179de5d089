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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"kscope/cluster"
)

// helmQPS turns the client-side rate limit off for the reader of Helm's storage: its load is bounded by how
// many read at once (helm.Decoders), and the server's priority and fairness bounds the rest. A rate (the
// connection's 5/s, or even 100/s) made a thousand releases' charts take minutes, or 8 s.
const helmQPS = -1

// HelmStorage implements cluster.HelmStorage: a dynamic client of its own over the connection's config (its
// transport, so its one connection, and its read-only wrap), without a client-side rate (helmQPS); the
// connection's own, if that client cannot be built.
func (c *Cluster) HelmStorage() cluster.ObjectReader {
	c.helmOnce.Do(func() {
		cfg := rest.CopyConfig(c.cfg)
		cfg.QPS = helmQPS
		if dyn, err := dynamic.NewForConfig(cfg); err == nil {
			c.helmStore = storageReader{host: c.cfg.Host, dyn: dyn}
		}
	})
	if c.helmStore == nil {
		return c
	}
	return c.helmStore
}

// storageReader reads one object with its own client, as Cluster.Get does.
type storageReader struct {
	host string
	dyn  dynamic.Interface
}

// Get implements cluster.ObjectReader; errors are worded by DescribeServerError.
func (r storageReader) Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	obj, err := r.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, DescribeServerError(r.host, err)
	}
	return obj, nil
}

// helmGroupResource names the storage of a release in the errors it causes.
var helmGroupResource = schema.GroupResource{Group: "helm.sh", Resource: "releases"}

// HelmRollback implements cluster.Helm with Helm's rollback action over this connection's kubeconfig flags
// (their read-only wrap included).
func (c *Cluster) HelmRollback(ctx context.Context, r cluster.HelmRelease, revision int) error {
	cfg, _, err := c.helmAction(ctx, r)
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
	cfg, _, err := c.helmAction(ctx, r)
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

// HelmUpgrade implements cluster.Helm with Helm's upgrade action, as HelmRollback, its chart the latest
// revision's.
func (c *Cluster) HelmUpgrade(ctx context.Context, r cluster.HelmRelease, values map[string]any, dryRun bool) (cluster.HelmUpgraded, error) {
	cfg, last, err := c.helmAction(ctx, r)
	if err != nil {
		return cluster.HelmUpgraded{}, err
	}
	if last.Chart == nil {
		return cluster.HelmUpgraded{}, fmt.Errorf("helm upgrade %s/%s: revision %d stores no chart", r.Namespace, r.Name, last.Version)
	}
	up := action.NewUpgrade(cfg)
	up.Namespace = r.Namespace
	up.ResetValues = true
	up.Timeout = cluster.HelmTimeout
	up.WaitStrategy = helmkube.HookOnlyStrategy
	up.ServerSideApply = "auto"
	up.Description = "Upgrade complete (kscope: values edited)"
	if dryRun {
		up.DryRunStrategy = action.DryRunServer
	}
	// The action runs to its end once started, however the screen that asked goes: a cancelled upgrade is
	// a failed revision. Its hooks are waited for at most HelmTimeout.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cluster.HelmTimeout)
	defer cancel()
	out, err := up.RunWithContext(actx, r.Name, last.Chart, values)
	what := "upgrade"
	if dryRun {
		what = "upgrade --dry-run=server"
	}
	if err != nil {
		return cluster.HelmUpgraded{}, fmt.Errorf("helm %s %s/%s: %w", what, r.Namespace, r.Name, err)
	}
	rel, ok := out.(*rspb.Release)
	if !ok {
		return cluster.HelmUpgraded{}, fmt.Errorf("helm %s %s/%s: rendered as %T, not a Helm v1 release", what, r.Namespace, r.Name, out)
	}
	return cluster.HelmUpgraded{Revision: rel.Version, Manifest: rel.Manifest}, nil
}

// helmAction is Helm's action configuration for r's namespace and driver over the connection's flags, its
// logs dropped (the terminal is kscope's), and the release's latest revision, once r's precondition holds: that
// revision is still r.Latest (else a Conflict, nothing written).
func (c *Cluster) helmAction(ctx context.Context, r cluster.HelmRelease) (*action.Configuration, *rspb.Release, error) {
	if c.flags == nil {
		return nil, nil, errors.New("helm: this connection has no kubeconfig flags")
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := cfg.Init(c.flags, r.Namespace, r.Driver); err != nil {
		return nil, nil, fmt.Errorf("helm %s/%s: %w", r.Namespace, r.Name, err)
	}
	if kc, ok := cfg.KubeClient.(*helmkube.Client); ok {
		kc.Namespace = r.Namespace
	}
	last, err := cfg.Releases.Last(r.Name)
	if err != nil {
		return nil, nil, fmt.Errorf("helm %s/%s: read the latest revision: %w", r.Namespace, r.Name, err)
	}
	rel, ok := last.(*rspb.Release)
	if !ok {
		return nil, nil, fmt.Errorf("helm %s/%s: stored as %T, not a Helm v1 release", r.Namespace, r.Name, last)
	}
	if rel.Version != r.Latest {
		return nil, nil, apierrors.NewConflict(helmGroupResource, r.Name,
			fmt.Errorf("its latest revision is %d now, not %d as shown", rel.Version, r.Latest))
	}
	return cfg, rel, nil
}
