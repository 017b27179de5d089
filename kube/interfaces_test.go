package kube

import (
	"kscope/cluster"
	"kscope/discovery"
	"kscope/tree"
	"kscope/watch"
)

// The real types and the test doubles of watch, discovery and tree satisfy the interfaces package cluster
// declares, and watch's sources have the optional capabilities the UI looks for.
var (
	_ cluster.RowSource  = (*watch.Source)(nil)
	_ cluster.RowSource  = (*watch.StaticSource)(nil)
	_ cluster.Catalog    = (*discovery.Catalog)(nil)
	_ cluster.Catalog    = (*discovery.StaticCatalog)(nil)
	_ cluster.TreeSource = (*tree.Source)(nil)

	_ cluster.Settler   = (*watch.Source)(nil)
	_ cluster.Settler   = (*watch.StaticSource)(nil)
	_ cluster.Pulser    = (*watch.Source)(nil)
	_ cluster.Versioner = (*watch.Source)(nil)
	_ cluster.Versioner = (*watch.StaticSource)(nil)
)
