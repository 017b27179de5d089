package watch

import (
	"context"
	"time"

	"kscope/apierr"
)

// fillBackoff is the wait before the first retry of a failed metadata fill; each failure doubles it up to
// fillBackoffMax. A fill is retried until it succeeds, a newer list replaces it, or the source stops.
const (
	fillBackoff    = time.Second
	fillBackoffMax = 30 * time.Second
)

// metadataFill completes the rows of a metadata-less list (includeObject=None): after each such list it lists
// the rows again with their object metadata, not older than that list, and replaces the rows that still lack
// it (a row the watch has updated since already has its metadata) or that a relist kept with the metadata
// filled before it (rowStore.fill). Filled rows are not reported as changes unless a relist hid a change
// of labels or UID. The fill's list can arrive before the informer has delivered the rows it completes; the
// store keeps those filled rows until their metadata-less twins arrive (rowStore.early).
type metadataFill struct {
	lw    *tableListWatch
	store *rowStore
	// signal is called when rows were completed.
	signal func()
	// note is called with a line for the status ("labels pending: …, retrying") while a fill fails, and with
	// "" once it succeeds.
	note func(string)
	// done, if set, is called after each fill that completed.
	done func()
	// pending holds the latest metadata-less list not yet filled.
	pending chan listing
	// backoff is the wait before the first retry (fillBackoff).
	backoff time.Duration
}

func newMetadataFill(lw *tableListWatch, store *rowStore, signal func(), note func(string)) *metadataFill {
	return &metadataFill{lw: lw, store: store, signal: signal, note: note, pending: make(chan listing, 1),
		backoff: fillBackoff}
}

// listing is one metadata-less list: its resourceVersion and its generation in the store (earlyReset).
type listing struct {
	resourceVersion string
	gen             uint64
}

// listed records a metadata-less list at resourceVersion, before the informer delivers its rows; it never
// blocks (a newer list replaces an older one).
func (f *metadataFill) listed(resourceVersion string) {
	l := listing{resourceVersion: resourceVersion, gen: f.store.earlyReset()}
	for {
		select {
		case f.pending <- l:
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
		case l := <-f.pending:
			f.fill(ctx, l)
		}
	}
}

// fill lists the metadata of the rows of list l, not older than it, retrying with backoff until it succeeds,
// ctx ends, or a newer metadata-less list is pending (that list's fill supersedes this one).
func (f *metadataFill) fill(ctx context.Context, l listing) {
	wait := f.backoff
	for {
		n := 0
		err := f.lw.listMetadata(ctx, l.resourceVersion, func(o *rowObject) {
			if f.store.fill(o.get(), l.gen) {
				n++
			}
		})
		if n > 0 { // (a list that broke off may have completed some rows)
			f.signal()
		}
		if err == nil {
			f.note("")
			if f.done != nil {
				f.done()
			}
			return
		}
		if ctx.Err() != nil {
			return
		}
		f.note("labels pending: " + apierr.Message(err) + ", retrying")
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if len(f.pending) > 0 {
			return
		}
		wait = min(2*wait, fillBackoffMax)
	}
}
