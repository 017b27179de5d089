package ui

import (
	"context"
	"fmt"

	"kscope/cluster"
)

// HelmRollback implements cluster.Helm: recorded; the ui tests open no Helm screen that writes.
func (c *fakeCluster) HelmRollback(_ context.Context, r cluster.HelmRelease, revision int) error {
	c.record(fmt.Sprintf("helm rollback %s/%s %d latest=%d", r.Namespace, r.Name, revision, r.Latest))
	return nil
}

// HelmUninstall implements cluster.Helm: recorded, as HelmRollback.
func (c *fakeCluster) HelmUninstall(_ context.Context, r cluster.HelmRelease, keepHistory bool) (string, error) {
	c.record(fmt.Sprintf("helm uninstall %s/%s keep-history=%v latest=%d", r.Namespace, r.Name, keepHistory, r.Latest))
	return "release uninstalled", nil
}

// HelmUpgrade implements cluster.Helm: recorded, as HelmRollback.
func (c *fakeCluster) HelmUpgrade(_ context.Context, r cluster.HelmRelease, values map[string]any, dryRun bool) (cluster.HelmUpgraded, error) {
	c.record(fmt.Sprintf("helm upgrade %s/%s dry-run=%v latest=%d values=%v", r.Namespace, r.Name, dryRun, r.Latest, values))
	return cluster.HelmUpgraded{Revision: r.Latest + 1}, nil
}
