package watch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A view's first list arrives in pages so that its first rows are on screen long before the last: the server
// prints a Table only once it has converted every row of the response (at 50k pods, most of a second before
// the first byte), but a page of firstPageRows comes back in tens of milliseconds. The rest follows in pages
// of pageRows, each requested as soon as the previous one's continue token is read, so the server prints a
// page while kscope decodes the one before. Every page of one list is the same consistent snapshot (the
// continue token pins its resourceVersion); the rows are previewed page by page and handed to the informer
// as one list at the end.
const (
	firstPageRows = 250
	pageRows      = 10000
)

// previewer receives the rows of a first list while it arrives (see tableListWatch.preview).
type previewer interface {
	// previewRows shows rows, the rows of a page just decoded, and expected, the number of rows the whole
	// list holds (0 when the server did not say).
	previewRows(rows []*rowObject, expected int)
	// previewDone ends the preview: the list was returned to the informer (ok), or it failed, and the
	// previewed rows must go (the informer will list again).
	previewDone(ok bool)
}

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

// listPaged lists as list does, in pages, calling p after each page. It returns the list metadata of the
// first page (the list's resourceVersion) with no continue token, and the rows of every page in order.
func (lw *tableListWatch) listPaged(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy, p previewer) (*wireTable, []*rowObject, error) {
	var rows []*rowObject
	t, err := lw.listPages(ctx, opts, include, lw.listStats(), func(pg []*rowObject, expected int) {
		rows = append(rows, pg...)
		if include != metav1.IncludeNone || lw.conv.keyedByName() { // (else listed again with metadata)
			p.previewRows(pg, max(expected, len(rows)))
		}
	})
	if err != nil {
		return nil, nil, err
	}
	return t, rows, nil
}

// listPages lists in pages (the first of firstPageRows, the rest of pageRows, each requested as soon as the
// previous one's continue token is read; pages with metadata as pairs where the server allows), calling each
// with every page's rows in order and the number of rows the whole list holds (0 while the server has not
// said). It returns the list metadata of the first page with no continue token.
func (lw *tableListWatch) listPages(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	st pageStats, each func(rows []*rowObject, expected int)) (*wireTable, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a page requested ahead of a failure
	opts.Limit, opts.Continue = firstPageRows, ""
	cur := lw.requestPage(ctx, opts, include, st)
	var first *wireTable
	expected, listed := 0, 0
	for cur != nil {
		var next *pageRequest
		if m, ok := <-cur.meta; ok && m.Continue != "" {
			opts.Limit, opts.Continue, opts.ResourceVersion, opts.ResourceVersionMatch = pageRows, m.Continue, "", ""
			if lw.pairable(include) {
				next = lw.requestPairedPage(ctx, opts, st)
			} else {
				next = lw.requestPage(ctx, opts, include, st)
			}
		}
		pg := <-cur.done
		if pg.err != nil {
			return nil, pg.err
		}
		if first == nil {
			first = pg.table
			if n := first.Metadata.RemainingItemCount; n != nil {
				expected = len(pg.rows) + int(*n)
			}
		}
		listed += len(pg.rows)
		each(pg.rows, max(expected, listed))
		cur = next
	}
	t := *first
	t.Metadata.Continue, t.Metadata.RemainingItemCount = "", nil
	return &t, nil
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
