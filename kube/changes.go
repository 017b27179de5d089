package kube

import (
	"fmt"

	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"kscope/changes"
	"kscope/cluster"
	"kscope/tree"
)

// NewChangeSource implements cluster.ChangeFeed with a changes.Source over a metadata client of its own,
// sending its one list and watch per kind and namespace at once as a tree's does (treeQPS, treeBurst).
func (c *Cluster) NewChangeSource(kinds []tree.Kind, namespaces []string) (cluster.ChangeSource, error) {
	cfg := rest.CopyConfig(c.cfg)
	cfg.QPS, cfg.Burst = treeQPS, treeBurst
	client, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("metadata client: %w", err)
	}
	return changes.NewSource(client, kinds, namespaces, changes.Capacity, c.start), nil
}
