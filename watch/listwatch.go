package watch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	jsoniter "github.com/json-iterator/go"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// tableAccept asks for Table rows, falling back to plain JSON on servers that cannot print Tables.
const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"

// tableListWatch lists and watches one resource as Table rows (includeObject=Metadata) and turns each row
// into a rowObject. It implements cache.ListerWatcher and cache.ListerWatcherWithContext.
type tableListWatch struct {
	client *rest.RESTClient
	spec   Spec
	conv   *converter
	// noWatchList declares streaming lists (sendInitialEvents) unsupported, so the reflector LISTs instead.
	noWatchList bool
	// metadataLess lists rows without their objects (includeObject=None, several times cheaper for the server);
	// rows are keyed by their name cell and completed later by a metadata fill. Watches always carry metadata.
	metadataLess atomic.Bool
	// preview, while set, receives the rows of the first list page by page (listPaged); it is cleared once
	// a list succeeds. Set before the informer starts, then used only by its lists (the reflector's goroutine).
	preview previewer
	// listedWithoutMetadata is called with the list's resourceVersion after a metadata-less list.
	listedWithoutMetadata func(resourceVersion string)
	// connected is called after each successful list or watch request.
	connected func()
	// disconnected is called when a watch request fails: the reflector retries some failures (connection
	// refused) without reporting them, so this is the only sign that the rows may be going stale.
	disconnected func(error)
	// pulse, if set, records the requests, their bytes and the watch's events.
	pulse *pulseRecorder
	// listBytes counts the bytes the list in progress has read (its pages are read concurrently).
	listBytes atomic.Int64
	// noMetadataList is set once a page asked for as a pair failed: later pages with metadata are asked for
	// as one Table (see requestPairedPage).
	noMetadataList atomic.Bool
	// joinedPages counts the pages of the list in progress that were joined (requestPairedPage).
	joinedPages atomic.Int32
}

// newTableClient returns a REST client whose errors decode to API status errors; requests set their own paths.
func newTableClient(cfg *rest.Config) (*rest.RESTClient, error) {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &schema.GroupVersion{Version: "v1"}
	c.APIPath = "/api"
	c.NegotiatedSerializer = serializer.NewCodecFactory(s).WithoutConversion()
	if c.UserAgent == "" {
		c.UserAgent = rest.DefaultKubernetesUserAgent()
	}
	return rest.RESTClientFor(c)
}

// resourcePath returns the URL path of a resource collection, limited to namespace unless it is empty.
func resourcePath(gvr schema.GroupVersionResource, namespace string) string {
	p := "/apis/" + gvr.Group + "/" + gvr.Version
	if gvr.Group == "" {
		p = "/api/" + gvr.Version
	}
	if namespace != "" {
		p += "/namespaces/" + namespace
	}
	return p + "/" + gvr.Resource
}

// request returns a GET of the resource's rows as a Table with include.
func (lw *tableListWatch) request(opts metav1.ListOptions, include metav1.IncludeObjectPolicy) *rest.Request {
	return lw.get(opts).Param("includeObject", string(include)).SetHeader("Accept", tableAccept)
}

// get returns a GET of the resource's collection (in the view's namespace) with opts and the view's selectors.
func (lw *tableListWatch) get(opts metav1.ListOptions) *rest.Request {
	opts.LabelSelector = lw.spec.LabelSelector
	opts.FieldSelector = lw.spec.FieldSelector
	ns := lw.spec.Namespace
	if !lw.spec.Namespaced {
		ns = ""
	}
	return lw.client.Get().
		AbsPath(resourcePath(lw.spec.GVR, ns)).
		SpecificallyVersionedParams(&opts, metav1.ParameterCodec, metav1.SchemeGroupVersion)
}

// ListWithContext lists the resource as Table rows.
//
// The reflector's first list asks for resourceVersion "0": whatever the server's watch cache holds, which can
// lag behind writes the server has already acknowledged (seen: the first object of a CRD just created missing
// from a table that said "synced"). kscope's first list is a consistent read instead, as `kubectl get`'s: ""
// (served from the watch cache once it has caught up with etcd), in one response.
func (lw *tableListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if opts.ResourceVersion == "0" {
		opts.ResourceVersion, opts.ResourceVersionMatch, opts.Limit = "", "", 0
	}
	include := metav1.IncludeMetadata
	if lw.metadataLess.Load() {
		include = metav1.IncludeNone
	}
	var begin time.Time
	if lw.pulse != nil {
		begin = lw.pulse.clock.Now()
	}
	lw.listBytes.Store(0)
	lw.joinedPages.Store(0)
	list, p := lw.list, lw.preview
	if p != nil {
		list = func(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy) (*wireTable, []*rowObject, error) {
			return lw.listPaged(ctx, opts, include, p)
		}
	}
	t, items, err := list(ctx, opts, include)
	if err == nil && include == metav1.IncludeNone && !lw.conv.keyedByName() {
		// Rows without a name column cannot be keyed without their metadata.
		lw.metadataLess.Store(false)
		include = metav1.IncludeMetadata
		t, items, err = list(ctx, opts, include)
	}
	if p != nil {
		if err == nil {
			lw.preview = nil // later lists (after 410 Gone, a restart) find the rows on screen
		}
		p.previewDone(err == nil)
	}
	if ctx.Err() == nil {
		var rv string
		if t != nil {
			rv = t.Metadata.ResourceVersion
		}
		lw.pulse.listDone(ListStat{At: begin, Bytes: lw.listBytes.Load(), Rows: len(items),
			Metadata: include != metav1.IncludeNone, JoinedPages: int(lw.joinedPages.Load())}, rv, err)
	}
	if err != nil {
		return nil, err
	}
	if lw.connected != nil {
		lw.connected()
	}
	if include == metav1.IncludeNone && lw.listedWithoutMetadata != nil && len(items) > 0 &&
		items[0].get().ResourceVersion == "" { // (a server without Table support sent whole objects)
		lw.listedWithoutMetadata(t.Metadata.ResourceVersion)
	}
	return &rowList{
		ListMeta: metav1.ListMeta{
			ResourceVersion:    t.Metadata.ResourceVersion,
			Continue:           t.Metadata.Continue,
			RemainingItemCount: t.Metadata.RemainingItemCount,
		},
		Items: items,
	}, nil
}

// list requests one list and decodes it.
func (lw *tableListWatch) list(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy) (*wireTable, []*rowObject, error) {
	return lw.listRows(ctx, opts, include, nil, nil, lw.addListBytes)
}

// addListBytes adds n to the bytes the list in progress has read.
func (lw *tableListWatch) addListBytes(n int64) { lw.listBytes.Add(n) }

// listRows requests one list and decodes it with decodeRows (onMeta and onRow may be nil), passing the number
// of bytes of each read of the body to count (if set); errors name the resource.
func (lw *tableListWatch) listRows(ctx context.Context, opts metav1.ListOptions, include metav1.IncludeObjectPolicy,
	onMeta func(wireMeta), onRow func(*rowObject), count func(int64)) (*wireTable, []*rowObject, error) {
	opts.Watch = false
	body, err := lw.request(opts, include).Stream(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	defer body.Close()
	t, items, err := decodeRows(countReads(body, count), lw.conv, decodeOptions{onMeta: onMeta, onRow: onRow})
	if err != nil {
		return nil, nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	return t, items, nil
}

// listMetadata lists the rows with their object metadata, at least as new as resourceVersion (served from the
// server's watch cache), and passes each row to each, page by page: the list is never held whole beside the
// rows it completes. Its pages after the first are asked for as pairs (see requestPairedPage), which the
// server produces several times faster than one Table with metadata.
func (lw *tableListWatch) listMetadata(ctx context.Context, resourceVersion string, each func(*rowObject)) error {
	opts := metav1.ListOptions{ResourceVersion: resourceVersion, Limit: firstPageRows}
	if resourceVersion != "" {
		opts.ResourceVersionMatch = metav1.ResourceVersionMatchNotOlderThan
	}
	var st pageStats
	if lw.pulse != nil {
		st = pageStats{bytes: lw.pulse.fillRead, joined: lw.pulse.fillJoined}
	}
	_, err := lw.listContinued(ctx, opts, metav1.IncludeMetadata, st, continued{}, func(rows []*rowObject, _ int, _ bool) {
		for _, o := range rows {
			each(o)
		}
	})
	return err
}

// WatchWithContext watches the resource as one-row Tables.
func (lw *tableListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	body, err := lw.request(opts, metav1.IncludeMetadata).Stream(ctx)
	if err != nil {
		err = fmt.Errorf("watch %s: %w", lw.spec.GVR.String(), err)
		if ctx.Err() == nil {
			lw.pulse.watchEnded(err)
			if lw.disconnected != nil {
				lw.disconnected(err)
			}
		}
		return nil, err
	}
	lw.pulse.watchOpened()
	if lw.connected != nil {
		lw.connected()
	}
	dec := &tableWatchDecoder{body: body, iter: jsoniter.Parse(jsonAPI, body, 16<<10), conv: lw.conv, ctx: ctx,
		disconnected: lw.disconnected, pulse: lw.pulse}
	reporter := apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET", "ClientWatchDecoding")
	return watch.NewStreamWatcher(dec, reporter), nil
}

// List implements cache.Lister.
func (lw *tableListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch implements cache.Watcher.
func (lw *tableListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// IsWatchListSemanticsUnSupported tells the reflector whether it may use a streaming list.
func (lw *tableListWatch) IsWatchListSemanticsUnSupported() bool { return lw.noWatchList }

// tableWatchDecoder decodes a watch stream of one-row Tables into rowObjects (watch.Decoder).
type tableWatchDecoder struct {
	body io.ReadCloser
	iter *jsoniter.Iterator
	conv *converter
	ctx  context.Context
	// disconnected, if set, is told when the stream breaks or the server ends it with an ERROR event (410
	// Gone): the reflector then backs off before it relists, without reporting the error.
	disconnected func(error)
	// pulse, if set, records each event and the end of the stream: its first end only (after an ERROR event
	// the reflector closes the body, and the read that fails then is not the cause).
	pulse *pulseRecorder
	ended bool
}

type wireEvent struct {
	Type   watch.EventType `json:"type"`
	Object wireTable       `json:"object"`
}

// Decode returns the next event.
func (d *tableWatchDecoder) Decode() (watch.EventType, runtime.Object, error) {
	typ, obj, err := d.decode()
	if d.ctx != nil && d.ctx.Err() != nil {
		return typ, obj, err
	}
	var ended error
	switch {
	case err == io.EOF:
		d.endPulse(nil)
	case err != nil:
		ended = fmt.Errorf("watch stream: %w", err)
	case typ == watch.Error:
		if st, ok := obj.(*metav1.Status); ok {
			ended = apierrors.FromObject(st)
		}
	default:
		if o, ok := obj.(*rowObject); ok && o.get() != nil {
			d.pulse.event(o.get().ResourceVersion, typ == watch.Bookmark)
		}
	}
	if ended != nil {
		d.endPulse(ended)
		if d.disconnected != nil {
			d.disconnected(ended)
		}
	}
	return typ, obj, err
}

// endPulse records the end of the stream, once.
func (d *tableWatchDecoder) endPulse(err error) {
	if !d.ended {
		d.ended = true
		d.pulse.watchEnded(err)
	}
}

func (d *tableWatchDecoder) decode() (watch.EventType, runtime.Object, error) {
	if next := d.iter.WhatIsNext(); next != jsoniter.ObjectValue {
		if d.iter.Error != nil {
			return "", nil, d.iter.Error // io.EOF when the server ended the watch
		}
		return "", nil, fmt.Errorf("watch stream: expected an event object")
	}
	var ev wireEvent
	if d.iter.ReadVal(&ev); d.iter.Error != nil {
		return "", nil, d.iter.Error
	}
	return d.conv.event(&ev)
}

// Close closes the stream.
func (d *tableWatchDecoder) Close() { d.body.Close() }

// event converts one decoded watch event.
func (c *converter) event(ev *wireEvent) (watch.EventType, runtime.Object, error) {
	switch ev.Type {
	case watch.Error:
		st, ok := ev.Object.status()
		if !ok {
			return "", nil, fmt.Errorf("watch error event without a Status: kind %q", ev.Object.Kind)
		}
		return watch.Error, st, nil
	case watch.Bookmark:
		if ev.Object.isTable() && len(ev.Object.ColumnDefinitions) > 0 {
			c.setColumns(ev.Object.ColumnDefinitions, false)
		}
		m := &ev.Object.Metadata
		if ev.Object.isTable() && len(ev.Object.Rows) > 0 {
			m = &ev.Object.Rows[0].Object.Metadata
		}
		o := newRowObject(&Row{ResourceVersion: m.ResourceVersion}, nil)
		if len(m.Annotations) > 0 {
			o.annotations = m.Annotations
		}
		return watch.Bookmark, o, nil
	case watch.Added, watch.Modified, watch.Deleted:
		rows, err := c.convert(&ev.Object)
		if err != nil {
			return "", nil, err
		}
		if len(rows) != 1 {
			return "", nil, fmt.Errorf("watch %s event with %d rows, want 1", ev.Type, len(rows))
		}
		return ev.Type, rows[0], nil
	}
	return "", nil, fmt.Errorf("unknown watch event type %q", ev.Type)
}

// jsonAPI decodes server responses; json-iterator reads Tables several times faster than encoding/json and
// decodes from a stream without holding the body. Keys match exactly, as the server writes them (encoding/json
// and json-iterator's standard configuration would also take "oBjeCt" for "object").
var jsonAPI = jsoniter.Config{EscapeHTML: true, SortMapKeys: true, ValidateJsonRawMessage: true,
	CaseSensitive: true}.Froze()
