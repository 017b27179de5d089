package ui

import (
	"context"

	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/tree"
	"kscope/watch"
)

// ownedSource is the rows of src that owner (an object's UID) owns by their ownerReferences, live: src is a
// table's rows of one kind, owners the metadata (with ownerReferences) of the same kind's objects in the same
// namespace, listed and watched beside it; a row is kept when the object of its key names owner among its
// owners. It is a RowSource (the filter applies to Snapshot; Row, Changes and State are src's) and keeps its
// rows' versions when src does. Safe for concurrent use, as its sources are.
type ownedSource struct {
	cluster.RowSource
	owners cluster.TreeSource
	owner  types.UID
	spawn  func(func())
	notify chan struct{}
}

// newOwnedSource keeps the rows of src owned by owner, their owners read from owners (not started); spawn
// starts its goroutine.
func newOwnedSource(src cluster.RowSource, owners cluster.TreeSource, owner types.UID, spawn func(func())) *ownedSource {
	return &ownedSource{RowSource: src, owners: owners, owner: owner, spawn: spawn, notify: make(chan struct{}, 1)}
}

// Start starts both sources and relays their notices until ctx ends.
func (s *ownedSource) Start(ctx context.Context) {
	s.RowSource.Start(ctx)
	s.owners.Start(ctx)
	rows, owners := s.RowSource.Notify(), s.owners.Notify()
	s.spawn(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-rows:
			case <-owners:
			}
			select {
			case s.notify <- struct{}{}:
			default:
			}
		}
	})
}

// Stop stops both sources.
func (s *ownedSource) Stop() {
	s.RowSource.Stop()
	s.owners.Stop()
}

// Notify receives (coalesced) after the rows, their state or their owners changed.
func (s *ownedSource) Notify() <-chan struct{} { return s.notify }

// Snapshot is src's, but only the rows owner owns; Total counts them before q's filter.
func (s *ownedSource) Snapshot(q watch.Query) watch.Snapshot {
	owned := ownedKeys(s.owners.Objects(), s.owner)
	all := s.RowSource.Snapshot(q)
	out := watch.Snapshot{Rows: make([]*watch.Row, 0, len(owned))}
	for _, r := range all.Rows {
		if owned[r.Key] {
			out.Rows = append(out.Rows, r)
		}
	}
	for key := range owned {
		if _, ok := s.RowSource.Row(key); ok {
			out.Total++
		}
	}
	return out
}

// Versions are src's versions of the row with key, when src keeps them.
func (s *ownedSource) Versions(key string) []watch.RowVersion {
	if v, ok := s.RowSource.(cluster.Versioner); ok {
		return v.Versions(key)
	}
	return nil
}

// ownedKeys are the row keys ("namespace/name", or "name") of the objects whose ownerReferences name owner.
func ownedKeys(objects []tree.Object, owner types.UID) map[string]bool {
	keys := map[string]bool{}
	for _, o := range objects {
		for _, ref := range o.Owners {
			if ref.UID == owner {
				key := o.Name
				if o.Namespace != "" {
					key = o.Namespace + "/" + o.Name
				}
				keys[key] = true
				break
			}
		}
	}
	return keys
}
