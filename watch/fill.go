package watch

import (
	"context"
	"time"
)

// fillRetries and fillRetryDelay bound the attempts to complete rows listed without their metadata.
const (
	fillRetries    = 3
	fillRetryDelay = 2 * time.Second
)

// metadataFill completes the rows of a metadata-less list (includeObject=None): after each such list it lists
// the rows again with their object metadata, not older than that list, and replaces the rows that still lack
// it (a row the watch has updated since already has its metadata). Filled rows are not reported as changes.
type metadataFill struct {
	lw    *tableListWatch
	store *rowStore
	// signal is called when rows were completed.
	signal func()
	// pending holds the resourceVersion of the latest metadata-less list not yet filled.
	pending chan string
}

func newMetadataFill(lw *tableListWatch, store *rowStore, signal func()) *metadataFill {
	return &metadataFill{lw: lw, store: store, signal: signal, pending: make(chan string, 1)}
}

// listed records a metadata-less list at resourceVersion; it never blocks (a newer list replaces an older one).
func (f *metadataFill) listed(resourceVersion string) {
	for {
		select {
		case f.pending <- resourceVersion:
			return
		default:
		}
		select {
		case <-f.pending:
		default:
		}
	}
}

// run fills rows after each metadata-less list until ctx ends.
func (f *metadataFill) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case rv := <-f.pending:
			f.fill(ctx, rv)
		}
	}
}

func (f *metadataFill) fill(ctx context.Context, resourceVersion string) {
	for attempt := 0; attempt < fillRetries; attempt++ {
		items, err := f.lw.listMetadata(ctx, resourceVersion)
		if err == nil {
			n := 0
			for _, o := range items {
				if f.store.fill(o.row) {
					n++
				}
			}
			if n > 0 {
				f.signal()
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(fillRetryDelay):
		}
	}
}
