package cluster

import (
	"context"

	"kscope/changes"
	"kscope/tree"
)

// ChangeFeed builds the live feed of changes (`:changes`). Implementations are safe for concurrent use.
type ChangeFeed interface {
	// NewChangeSource builds (does not start) the metadata-only lists and watches, one per kind and
	// namespace, of kinds in namespaces ([""]: all, cluster-scoped kinds too), whose changes after the first
	// list it keeps (changes.Capacity of them).
	NewChangeSource(kinds []tree.Kind, namespaces []string) (ChangeSource, error)
}

// ChangeSource is the live feed of changes of some kinds; *changes.Source satisfies it. The UI calls Start
// once and Stop when the feed closes; the rest may be called from any goroutine.
type ChangeSource interface {
	Start(ctx context.Context)
	Stop()
	// Notify receives (coalesced) after a change, or after a kind's listing ended or failed.
	Notify() <-chan struct{}
	Progress() changes.Progress
	// Model is the changes kept.
	Model() *changes.Model
}
