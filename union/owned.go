package union

import (
	"context"

	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
	"kscope/spawn"
	"kscope/tree"
	"kscope/watch"
)

// Owned is the rows of a source that one owner (an object's UID) owns by their ownerReferences, live: its
// rows are one kind's in one namespace, its owners the metadata (with ownerReferences) of the same kind's
// objects there, listed and watched beside it; a row is kept when the object of its key names the owner
// (a cronjob's jobs: they carry no label that names it). It is a cluster.RowSource: Snapshot filters, Row,
// Changes, State and Columns are the rows' source's, and it keeps the rows' versions when that source does.
// Its Start, Stop, Done and Notify are its own watch.Lifecycle's, which starts and stops both sources. Safe
// for concurrent use, as its sources are.
type Owned struct {
	cluster.RowSource
	*watch.Lifecycle
	owners cluster.TreeSource
	owner  types.UID
}

// NewOwned keeps the rows of rows owned by owner, their owners read from owners (neither started); start
// starts its goroutine (the app's supervisor's; nil: a plain goroutine).
func NewOwned(start spawn.Func, rows cluster.RowSource, owners cluster.TreeSource, owner types.UID) *Owned {
	s := &Owned{RowSource: rows, owners: owners, owner: owner}
	s.Lifecycle = watch.NewLifecycle(watch.Hooks{Go: start, Run: s.run, Release: s.release})
	return s
}

// run starts both sources and relays their notices until ctx ends (the Lifecycle's Hooks.Run).
func (s *Owned) run(ctx context.Context, spawn func(func())) {
	s.RowSource.Start(ctx)
	s.owners.Start(ctx)
	rows, owners := s.RowSource.Notify(), s.owners.Notify()
	spawn(func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-rows:
			case <-owners:
			}
			s.Lifecycle.Signal()
		}
	})
}

// release stops both sources once the relay has returned (Hooks.Release).
func (s *Owned) release() {
	s.RowSource.Stop()
	s.owners.Stop()
}

// Start starts both sources (the Lifecycle's Start).
func (s *Owned) Start(ctx context.Context) { s.Lifecycle.Start(ctx) }

// Stop stops both sources (the Lifecycle's Stop).
func (s *Owned) Stop() { s.Lifecycle.Stop() }

// Notify receives (coalesced) after the rows, their state or their owners changed.
func (s *Owned) Notify() <-chan struct{} { return s.Lifecycle.Notify() }

// Snapshot is the rows' source's, but only the rows the owner owns; Total counts them before q's filter.
func (s *Owned) Snapshot(q watch.Query) watch.Snapshot {
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

// Versions are the rows' source's versions of the row with key, when it keeps them.
func (s *Owned) Versions(key string) []watch.RowVersion {
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

var _ cluster.RowSource = (*Owned)(nil)
