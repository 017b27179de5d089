package watch

import (
	"context"
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A view's first list arrives in pages so that its first rows are on screen long before the last: the server
// prints a Table only once it has converted every row of the response (at 200k pods, over a second before the
// first byte), but a page of firstPageRows comes back in tens of milliseconds. The rest follows in pages of
// pageRows, each requested as soon as the previous one's continue token is read, so the server prints a page
// while kscope decodes the one before. Every page of one list is the same consistent snapshot (the continue
// token pins its resourceVersion); the rows are previewed page by page and handed to the informer as one list
// at the end.
//
// A server serves those pages from its watch cache only where it keeps a snapshot at or before the token's
// resourceVersion (1.34 and later; a resource that nothing wrote to loses them at the next compaction);
// otherwise each page is read from etcd: at 200k pods in one namespace the 20 pages of 10k took 7–12 s from
// etcd and 1.2–1.6 s from the cache. When the second page keeps the list waiting longer than slowPage for its
// first bytes, the pages are taken to come from etcd: they stop, and the rest is asked for as the whole list,
// not older than the first page (its resourceVersion, resourceVersionMatch=NotOlderThan, no limit), which the
// server answers from its watch cache on every version (1.5–2 s at 200k). The whole list replaces the pages
// previewed.
//
// The whole list of rows with their metadata is asked for as a pair (pairedpage.go). The pair's two halves
// must be one snapshot; when the server answered them at different resourceVersions (a write between the
// two), the pages go on from the last continue token.
const (
	firstPageRows = 250
	pageRows      = 10000
	// slowPage is the longest the second page may take to its first bytes before the rest of the list is
	// asked for whole: a watch cache serves 10k pods in about 0.1 s (at 200k in the namespace), etcd in
	// 0.4–1.1 s.
	slowPage = 300 * time.Millisecond
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
	meta    chan wireMeta
	done    chan page
	started time.Time
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
// firstPageRows, then pages of pageRows from its continue token, or, when the second page is slow, the whole
// list not older than the first page. It returns the list metadata of the rows passed last, with no continue
// token.
func (lw *tableListWatch) listPages(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, each pageFunc) (*wireTable, error) {
	opts.Limit, opts.Continue = firstPageRows, ""
	return lw.listContinued(ctx, opts, include, st, continued{}, each, func(c continued, cont string) (*wireTable, error) {
		return lw.listRest(ctx, opts, include, st, c, cont, each)
	})
}

// waitMeta waits for the list metadata of r (ok false: r failed before it); with timed, for no longer than
// lw's slowPage after r was requested (slow: it did not come).
func (lw *tableListWatch) waitMeta(r *pageRequest, timed bool) (m wireMeta, ok, slow bool) {
	if !timed {
		m, ok = <-r.meta
		return m, ok, false
	}
	wait := lw.slowPage
	if wait == 0 {
		wait = slowPage
	}
	t := time.NewTimer(time.Until(r.started.Add(wait)))
	defer t.Stop()
	select {
	case m, ok = <-r.meta:
		return m, ok, false
	case <-t.C:
		return m, false, true
	}
}

// listRest lists the rest of a list in pages that has come as far as c, whose next page (asked for with the
// continue token cont) was slow: as the whole list not older than c's first page, passed to each as a whole;
// if the whole list comes as a pair of two snapshots, in pages again from cont.
func (lw *tableListWatch) listRest(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, c continued, cont string, each pageFunc) (*wireTable, error) {
	whole := opts
	whole.Limit, whole.Continue = 0, ""
	whole.ResourceVersion, whole.ResourceVersionMatch = c.first.Metadata.ResourceVersion, metav1.ResourceVersionMatchNotOlderThan
	w := <-lw.requestRest(ctx, whole, include, st).done
	if !errors.Is(w.err, errPairVersions) {
		return wholeList(w, each)
	}
	opts.Limit, opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = pageRows, cont, "", ""
	return lw.listContinued(ctx, opts, include, st, c, each, nil)
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
//
// With slow set, a second page (the first after the start) that keeps the list waiting longer than slowPage
// for its first bytes ends the pages: slow lists the rest, given how far the list came and the continue token
// that page was asked for with. Only the second page is timed: the server answers it while kscope has only the
// first to decode, and a later page slowed by the machine's load would cost the pages already read.
func (lw *tableListWatch) listContinued(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, c continued, each pageFunc, slow func(c continued, cont string) (*wireTable, error)) (*wireTable, error) {
	pages, stopPages := context.WithCancel(ctx)
	defer stopPages() // a page requested ahead of a failure or of the switch to slow
	var cur *pageRequest
	if opts.Continue != "" {
		cur = lw.requestRest(pages, opts, include, st)
	} else {
		cur = lw.requestPage(pages, opts, include, st)
	}
	cont := opts.Continue // the continue token cur was asked for with
	for n := 0; cur != nil; n++ {
		m, ok, late := lw.waitMeta(cur, slow != nil && n == 1)
		if late {
			stopPages()
			return slow(c, cont)
		}
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
		cur, cont = next, opts.Continue
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
	r := &pageRequest{meta: make(chan wireMeta, 1), done: make(chan page, 1), started: time.Now()}
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
