package kube

import (
	"kscope/discovery"
	"kscope/ui"
	"kscope/watch"
)

// The real types and the test doubles of watch and discovery satisfy the interfaces the UI declares.
var (
	_ ui.RowSource = (*watch.Source)(nil)
	_ ui.RowSource = (*watch.StaticSource)(nil)
	_ ui.Catalog   = (*discovery.Catalog)(nil)
	_ ui.Catalog   = (*discovery.StaticCatalog)(nil)
)
