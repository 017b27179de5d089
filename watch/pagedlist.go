package watch

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A view's first list is asked for in two requests, so that its first rows are on screen long before the
// last: the server prints a Table only once it has converted every row of the response (at 200k pods, over
// a second before the first byte), but a first page of firstPageRows comes back in tens of milliseconds. As
// soon as that page's list metadata is read, the whole list is asked for, not older than the page (its
// resourceVersion, resourceVersionMatch=NotOlderThan, no limit): the server answers such a list from its
// watch cache, on every version. The first page is previewed, and then replaced by the whole list.
//
// Pages after the first, asked for with its continue token, would be one snapshot with it, but a server
// serves them from its watch cache only where it keeps snapshots (1.34 and later, and only while it holds
// one at or before the token's resourceVersion; a quiet resource loses them at each compaction): otherwise
// each is read from etcd. At 200k pods in one namespace the 20 pages of 10k took 7–12 s from etcd, the whole
// list 1.4–1.9 s from the cache (measured on the devcluster).
//
// The whole list of rows with their metadata is asked for as a pair (pairedpage.go). The pair's two halves
// must be one snapshot; when the server answered them at different resourceVersions (a write between the
// two), the rest is listed in pages of pageRows from the first page's continue token, which pins one
// snapshot, each page requested as soon as the previous one's continue token is read.
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
// firstPageRows, then the whole list not older than it. When the whole list, asked for as a pair, comes back
// as two snapshots, the list goes on in pages from the first page's continue token. It returns the list
// metadata of the rows passed last, with no continue token.
func (lw *tableListWatch) listPages(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, each pageFunc) (*wireTable, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a request made ahead of a failure
	whole := opts
	whole.Limit, whole.Continue = 0, ""
	opts.Limit, opts.Continue = firstPageRows, ""
	head := lw.requestPage(ctx, opts, include, st)
	var rest *pageRequest
	m, ok := <-head.meta
	if ok && m.Continue != "" {
		whole.ResourceVersion, whole.ResourceVersionMatch = m.ResourceVersion, metav1.ResourceVersionMatchNotOlderThan
		rest = lw.requestRest(ctx, whole, include, st)
	}
	pg := <-head.done
	if pg.err != nil {
		return nil, pg.err
	}
	expected := announced(pg)
	each(pg.rows, max(expected, len(pg.rows)), false)
	if rest == nil {
		return listMetaOf(pg.table), nil
	}
	w := <-rest.done
	if !errors.Is(w.err, errPairVersions) {
		return wholeList(w, each)
	}
	opts.Limit, opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = pageRows, m.Continue, "", ""
	return lw.listContinued(ctx, opts, include, st, continued{first: pg.table, listed: len(pg.rows), expected: expected}, each)
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
	var cur *pageRequest
	if opts.Continue != "" {
		cur = lw.requestRest(ctx, opts, include, st)
	} else {
		cur = lw.requestPage(ctx, opts, include, st)
	}
	for cur != nil {
		var next *pageRequest
		if m, ok := <-cur.meta; ok && m.Continue != "" {
			opts.Limit, opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = pageRows, m.Continue, "", ""
			next = lw.requestRest(ctx, opts, include, st)
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
	return startPage(func(onMeta func(wireMeta)) (*wireTable, []*rowObject, error) {
		return lw.listRows(ctx, opts, include, onMeta, nil, st.bytes)
	})
}

// startPage runs list, which reads one page, on a goroutine of its own: the page's list metadata (the first
// value list passes to onMeta) goes to the request's meta as soon as it is read, the page to done.
func startPage(list func(onMeta func(wireMeta)) (*wireTable, []*rowObject, error)) *pageRequest {
	r := &pageRequest{meta: make(chan wireMeta, 1), done: make(chan page, 1)}
	go func() {
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
	}()
	return r
}
