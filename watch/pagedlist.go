package watch

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A view's first list arrives in two parts so that its first rows are on screen long before the last: the
// server prints a Table only once it has converted every row of the response (at 200k pods, over a second
// before the first byte), but a first page of firstPageRows comes back in tens of milliseconds. As soon as
// that page's continue token is read, the rest is asked for as the whole list, not older than the first page
// (its resourceVersion, resourceVersionMatch=NotOlderThan, no limit), which the server answers from its watch
// cache on every version, without waiting again for the cache to catch up with etcd (the first page did).
// The whole list replaces the page previewed.
//
// The rest is not read in pages: a server serves continue pages from its watch cache only where it keeps a
// snapshot at or before the token's resourceVersion (1.34 and later; a resource nothing wrote to since the
// last compaction has none), and otherwise from etcd, page after page, each slower than the one before. At
// 50k pods in one namespace of the devcluster (load 0.5–1.9), launch to the informer holding every row took
// 1.1–3.4 s in pages from etcd, 0.9–1.2 s in pages from the cache and 0.7–1.2 s with the whole list in either
// state (2026-12-06, bench/results). A 300 ms timer on the second page, meant to tell the two apart, did not:
// from etcd that page came in under it, and the later pages were the slow ones.
//
// The whole list of rows with their metadata is asked for as a pair (pairedpage.go). The pair's two halves
// must be one snapshot; when the server answered them at different resourceVersions (a write between the
// two), the rest is read in pages of pageRows from the first page's continue token, which pins one snapshot.
const (
	firstPageRows = 250
	pageRows      = 10000
)

// previewer receives the rows of a first list while it arrives (see tableListWatch.preview).
type previewer interface {
	// previewRows shows rows, the rows of a page just decoded, and expected, the number of rows the whole
	// list holds (0 when the server did not say).
	previewRows(rows []*rowObject, expected int)
	// previewGone removes the rows with keys, rows of the first page that the whole list no longer holds.
	previewGone(keys []string)
	// previewDone ends the preview: the list was returned to the informer (ok), or it failed, and the
	// previewed rows must go (the informer will list again).
	previewDone(ok bool)
}

// pageFunc receives the rows of a list as they arrive: a page of them (whole false), or the whole list, which
// replaces the pages before it (whole true); expected is the number of rows the whole list holds (0 while the
// server has not said).
type pageFunc func(rows []*rowObject, expected int, whole bool)

// pageRequest is one page in flight: meta receives the page's list metadata as soon as it is decoded
// (closed without a value when the request fails before), done the page once it is decoded.
type pageRequest struct {
	meta chan wireMeta
	done chan page
}

type page struct {
	table *wireTable
	rows  []*rowObject
	err   error
}

// announced returns the number of rows the list of pg holds as its server announced it (pg's rows and the
// remaining item count), or 0 when the server did not say.
func announced(pg page) int {
	if n := pg.table.Metadata.RemainingItemCount; n != nil {
		return len(pg.rows) + int(*n)
	}
	return 0
}

// listMetaOf returns t with neither a continue token nor a remaining item count: the list metadata of a
// whole list.
func listMetaOf(t *wireTable) *wireTable {
	c := *t
	c.Metadata.Continue, c.Metadata.RemainingItemCount = "", nil
	return &c
}

// pageStats is where the requests of one list count what they read: bytes (nil: not counted) gets the
// bytes of every read of a body, joined (nil: not counted) is called for each page that was joined
// (requestPairedPage).
type pageStats struct {
	bytes  func(int64)
	joined func()
}

// listStats counts into the list in progress (listBytes, joinedPages), which the pulse reports.
func (lw *tableListWatch) listStats() pageStats {
	return pageStats{bytes: lw.addListBytes, joined: func() { lw.joinedPages.Add(1) }}
}

// listPaged lists as list does, previewing its first page with p while the rest is on its way (see above).
// It returns the list metadata of the list with no continue token, and every row of it in order.
func (lw *tableListWatch) listPaged(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy, p previewer) (*wireTable, []*rowObject, error) {
	var rows []*rowObject
	t, err := lw.listPages(ctx, opts, include, lw.listStats(), func(pg []*rowObject, expected int, whole bool) {
		// (Rows without metadata and without a name column are listed again with it. The columns are known once
		// a page is read.)
		shown := include != metav1.IncludeNone || lw.conv.keyedByName()
		if whole {
			gone := goneKeys(rows, pg)
			rows = pg
			if shown {
				p.previewRows(pg, len(pg))
				p.previewGone(gone)
			}
			return
		}
		rows = append(rows, pg...)
		if shown {
			p.previewRows(pg, max(expected, len(rows)))
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return t, rows, nil
}

// goneKeys returns the keys of the rows of before that after does not hold.
func goneKeys(before, after []*rowObject) []string {
	left := make(map[string]struct{}, len(before))
	for _, o := range before {
		if r := o.get(); r != nil {
			left[r.Key] = struct{}{}
		}
	}
	for _, o := range after {
		if len(left) == 0 {
			return nil
		}
		if r := o.get(); r != nil {
			delete(left, r.Key)
		}
	}
	var keys []string
	for k := range left {
		keys = append(keys, k)
	}
	return keys
}

// listPages lists the rows of opts and passes them to each as they arrive (see above): a first page of
// firstPageRows, then the rest as the whole list not older than the first page (in pages from its continue
// token if the whole list comes as a pair of two snapshots). It returns the list metadata of the rows passed
// last, with no continue token.
func (lw *tableListWatch) listPages(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, each pageFunc) (*wireTable, error) {
	rest, stopRest := context.WithCancel(ctx)
	defer stopRest() // the rest, requested ahead of the first page's failure
	opts.Limit, opts.Continue = firstPageRows, ""
	first := lw.requestPage(ctx, opts, include, st) // (one Table: a pair without a continue token could be two snapshots)
	var whole *pageRequest
	if m, ok := <-first.meta; ok && m.Continue != "" {
		w := opts
		w.Limit, w.Continue = 0, ""
		w.ResourceVersion, w.ResourceVersionMatch = m.ResourceVersion, metav1.ResourceVersionMatchNotOlderThan
		whole = lw.requestRest(rest, w, include, st)
	}
	pg := <-first.done
	if pg.err != nil {
		return nil, pg.err
	}
	c := continued{first: pg.table, expected: announced(pg), listed: len(pg.rows)}
	each(pg.rows, max(c.expected, c.listed), false)
	if pg.table.Metadata.Continue == "" {
		return listMetaOf(pg.table), nil
	}
	if whole != nil {
		if w := <-whole.done; !errors.Is(w.err, errPairVersions) {
			return wholeList(w, each)
		}
	}
	opts.Limit, opts.Continue = pageRows, pg.table.Metadata.Continue
	return lw.listContinued(ctx, opts, include, st, c, each)
}

// wholeList passes the rows of w, a whole list, to each, and returns its list metadata.
func wholeList(w page, each pageFunc) (*wireTable, error) {
	if w.err != nil {
		return nil, w.err
	}
	each(w.rows, len(w.rows), true)
	return listMetaOf(w.table), nil
}

// continued is how far a list in pages has come: the first page's table (nil before it), the rows listed
// and the rows the server announced.
type continued struct {
	first            *wireTable
	listed, expected int
}

// listContinued lists the pages of opts (from its continue token, or from the start), passing each to each;
// each page is requested as soon as the previous one's continue token is read, as a pair where the server
// allows (the first page of a list from the start as one Table: a pair without a continue token could be two
// snapshots). It returns the list metadata of c's first page with no continue token. Its pages are each held
// only until each returns (the metadata fill lists this way: the rows it completes are already held).
func (lw *tableListWatch) listContinued(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, c continued, each pageFunc) (*wireTable, error) {
	pages, stopPages := context.WithCancel(ctx)
	defer stopPages() // a page requested ahead of a failure
	var cur *pageRequest
	if opts.Continue != "" {
		cur = lw.requestRest(pages, opts, include, st)
	} else {
		cur = lw.requestPage(pages, opts, include, st)
	}
	for cur != nil {
		m, ok := <-cur.meta
		var next *pageRequest
		if ok && m.Continue != "" {
			opts.Limit, opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = pageRows, m.Continue, "", ""
			next = lw.requestRest(pages, opts, include, st)
		}
		pg := <-cur.done
		if pg.err != nil {
			return nil, pg.err
		}
		if c.first == nil {
			c.first, c.expected = pg.table, announced(pg)
		}
		c.listed += len(pg.rows)
		each(pg.rows, max(c.expected, c.listed), false)
		cur = next
	}
	return listMetaOf(c.first), nil
}

// requestRest requests a page after the first, or a whole list: as a pair where the server allows
// (pairable), else as one Table.
func (lw *tableListWatch) requestRest(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy, st pageStats) *pageRequest {
	if lw.pairable(include) {
		return lw.requestPairedPage(ctx, opts, st)
	}
	return lw.requestPage(ctx, opts, include, st)
}

// requestPage requests one page and decodes it on a goroutine of its own.
func (lw *tableListWatch) requestPage(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy, st pageStats) *pageRequest {
	return lw.startPage(func(onMeta func(wireMeta)) (*wireTable, []*rowObject, error) {
		return lw.listRows(ctx, opts, include, onMeta, nil, st.bytes)
	})
}

// startPage runs list, which reads one page, on a goroutine of its own: the page's list metadata (the first
// value list passes to onMeta) goes to the request's meta as soon as it is read, the page to done.
func (lw *tableListWatch) startPage(list func(onMeta func(wireMeta)) (*wireTable, []*rowObject, error)) *pageRequest {
	r := &pageRequest{meta: make(chan wireMeta, 1), done: make(chan page, 1)}
	lw.spec.Go.Go(func() {
		sent := false
		onMeta := func(m wireMeta) {
			if !sent {
				sent = true
				r.meta <- m
			}
		}
		defer func() {
			if !sent {
				close(r.meta)
			}
		}()
		t, rows, err := list(onMeta)
		r.done <- page{table: t, rows: rows, err: err}
	})
	return r
}
