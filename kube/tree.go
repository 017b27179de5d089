package kube

import (
	"fmt"

	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"

	"kscope/cluster"
	"kscope/tree"
)

// treeQPS and treeBurst let a tree's client send its one list and one watch per kind at once (the default,
// 5 a second, would take ~20 s over a cluster's ~60 kinds).
const (
	treeQPS   = 100
	treeBurst = 200
)

// NewTreeSource implements cluster.Sources with a tree.Source over a metadata client of its own, whose requests
// and bytes the source's Progress counts.
func (c *Cluster) NewTreeSource(kinds []tree.Kind, namespace string) (cluster.TreeSource, error) {
	cfg := rest.CopyConfig(c.cfg)
	counter := &tree.Counter{}
	cfg.Wrap(counter.Wrap)
	cfg.QPS, cfg.Burst = treeQPS, treeBurst
	client, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("metadata client: %w", err)
	}
	return tree.NewSource(client, kinds, namespace, counter, c.start), nil
}
