package watch

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	"kscope/health"
	"kscope/kubeproto"
)

// The media types the health ListWatch asks for: protobuf, which ProtoKind reads, else JSON (a server or a
// proxy that cannot write protobuf), which healthjson.go reads.
const (
	healthListAccept  = "application/vnd.kubernetes.protobuf, application/json"
	healthWatchAccept = "application/vnd.kubernetes.protobuf;stream=watch, application/json"
)

// maxHealthItem bounds one object (or one watch frame) as client-go's streaming decoder bounds a frame: the
// apiserver refuses objects above 1.5 MiB whole.
const maxHealthItem = 16 << 20

// healthListWatch lists and watches the objects of one built-in resource (a HEALTH column's source) in
// protobuf and turns each, as it is read, into its row: its key, uid, resourceVersion and its kstatus word as
// the only cell (healthRows). The list is read as a stream (kubeproto.ReadList) and no object is ever held
// whole: a row is all that is kept of it. It implements cache.ListerWatcher and cache.ListerWatcherWithContext
// for a reflector (ObjectSource.runHealth), passing the reflector's options through with the view's
// selectors. It declares streaming lists unsupported, so the reflector lists, then watches. Its methods may
// be called from several goroutines.
type healthListWatch struct {
	client *rest.RESTClient
	spec   Spec
	kind   *health.ProtoKind
	rows   *healthRows
	// connected is called after each successful list or watch request; disconnected when a watch request
	// fails, its stream breaks or the server ends it with an ERROR event (as tableListWatch's).
	connected    func()
	disconnected func(error)
}

// request returns a GET of the resource's collection in the view's namespace with opts and the view's
// selectors, accepting accept.
func (lw *healthListWatch) request(opts metav1.ListOptions, accept string) *rest.Request {
	opts.LabelSelector, opts.FieldSelector = lw.spec.LabelSelector, lw.spec.FieldSelector
	ns := lw.spec.Namespace
	if !lw.spec.Namespaced {
		ns = ""
	}
	return lw.client.Get().AbsPath(resourcePath(lw.spec.GVR, ns)).
		SpecificallyVersionedParams(&opts, metav1.ParameterCodec, metav1.SchemeGroupVersion).SetHeader("Accept", accept)
}

// ListWithContext lists the resource in one response, read as it arrives. The reflector's first list
// (resourceVersion "0", a page limit) is asked for as a consistent read of the whole list, as the Table
// ListWatch asks for it (see tableListWatch.ListWithContext): the column's rows are those of the table.
func (lw *healthListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if opts.ResourceVersion == "0" {
		opts.ResourceVersion, opts.ResourceVersionMatch, opts.Limit = "", "", 0
	}
	opts.Watch = false
	body, err := lw.request(opts, healthListAccept).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	defer body.Close()
	list, err := lw.decodeList(bufio.NewReaderSize(body, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	if lw.connected != nil {
		lw.connected()
	}
	return list, nil
}

// decodeList reads a list body: protobuf, read item by item (kubeproto.ReadList), or JSON (decodeJSONList).
func (lw *healthListWatch) decodeList(r *bufio.Reader) (*rowList, error) {
	if first, _ := r.Peek(1); len(first) == 1 && first[0] == '{' {
		return lw.decodeJSONList(r)
	}
	list := &rowList{Items: []*rowObject{}}
	err := kubeproto.ReadList(r, lw.kind.ListKind(), maxHealthItem, kubeproto.ListHandler{
		Meta: func(m metav1.ListMeta) error {
			list.ListMeta = m
			return nil
		},
		Item: func(b []byte) error {
			o, err := lw.kind.Read(b)
			if err != nil {
				return fmt.Errorf("item %d: %w", len(list.Items), err)
			}
			list.Items = append(list.Items, lw.rows.row(o))
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// WatchWithContext watches the resource: a watch.StreamWatcher over a healthWatchDecoder.
func (lw *healthListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	body, err := lw.request(opts, healthWatchAccept).Stream(ctx)
	if err != nil {
		err = fmt.Errorf("watch %s: %w", lw.spec.GVR.String(), err)
		if ctx.Err() == nil && lw.disconnected != nil {
			lw.disconnected(err)
		}
		return nil, err
	}
	if lw.connected != nil {
		lw.connected()
	}
	dec := &healthWatchDecoder{body: body, r: bufio.NewReaderSize(body, 32<<10), lw: lw, ctx: ctx}
	return watch.NewStreamWatcher(dec, apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET",
		"ClientWatchDecoding")), nil
}

// List implements cache.Lister.
func (lw *healthListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch implements cache.Watcher.
func (lw *healthListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// IsWatchListSemanticsUnSupported tells the reflector to list, then watch: a streamed list's bookmark
// annotation is not kept.
func (lw *healthListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// healthWatchDecoder decodes a watch stream of the resource into rows (watch.Decoder): protobuf frames
// (kubeproto.WatchReader), each object read by the ProtoKind, or JSON events (jsonEvents) where the server
// answered in JSON. An ERROR event's Status is passed on for the reflector (410 Gone makes it relist); a
// broken stream or an ERROR event is reported to lw.disconnected. Used by the StreamWatcher's goroutine only.
type healthWatchDecoder struct {
	body   io.ReadCloser
	r      *bufio.Reader
	lw     *healthListWatch
	ctx    context.Context
	events *kubeproto.WatchReader
	json   *jsonEvents
}

// Decode returns the next event.
func (d *healthWatchDecoder) Decode() (watch.EventType, runtime.Object, error) {
	typ, obj, err := d.decode()
	if d.ctx.Err() != nil || d.lw.disconnected == nil {
		return typ, obj, err
	}
	switch {
	case err != nil && err != io.EOF:
		d.lw.disconnected(fmt.Errorf("watch stream: %w", err))
	case err == nil && typ == watch.Error:
		d.lw.disconnected(apierrors.FromObject(obj))
	}
	return typ, obj, err
}

func (d *healthWatchDecoder) decode() (watch.EventType, runtime.Object, error) {
	if d.events == nil && d.json == nil {
		if first, _ := d.r.Peek(1); len(first) == 1 && first[0] == '{' {
			d.json = newJSONEvents(d.r, d.lw)
		} else {
			d.events = kubeproto.NewWatchReader(d.r, maxHealthItem)
		}
	}
	if d.json != nil {
		return d.json.next()
	}
	et, object, err := d.events.Next()
	if err != nil {
		return "", nil, err
	}
	kind, raw, err := kubeproto.Unwrap(object)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", et, err)
	}
	switch {
	case et == watch.Error && kind == "Status":
		st := &metav1.Status{}
		if err := st.Unmarshal(raw); err != nil {
			return "", nil, fmt.Errorf("decode watch error event: %w", err)
		}
		st.Kind, st.APIVersion = "Status", "v1"
		return et, st, nil
	case kind != d.lw.kind.Kind():
		return "", nil, fmt.Errorf("watch %s event: a %q where a %s was expected", et, kind, d.lw.kind.Kind())
	}
	o, err := d.lw.kind.Read(raw)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", et, err)
	}
	return et, d.lw.rows.row(o), nil
}

// Close closes the stream.
func (d *healthWatchDecoder) Close() { _ = d.body.Close() }

// healthRows builds the rows of a health source, sharing what rows have in common: the namespaces' texts,
// and each status word's cells and search text (a row's cells are never modified). Safe for concurrent use
// (a list and a watch of the same reflector may decode at the same time).
type healthRows struct {
	mu    sync.Mutex
	texts textSet
	cells map[health.Status][]string
	text  map[health.Status]string
}

func newHealthRows() *healthRows {
	return &healthRows{texts: textSet{}, cells: map[health.Status][]string{}, text: map[health.Status]string{}}
}

// row returns the row object of o: key, namespace, name, uid, resourceVersion and the status word (no
// labels, no creation time: the column needs none, as an ObjectSource of whole-object columns keeps none).
func (h *healthRows) row(o health.ProtoObject) *rowObject {
	h.mu.Lock()
	ns := h.texts.shareBytes(o.Namespace)
	cells, ok := h.cells[o.Status]
	if !ok {
		cells = []string{string(o.Status)}
		h.cells[o.Status], h.text[o.Status] = cells, searchText(cells, -1)
	}
	text := h.text[o.Status]
	h.mu.Unlock()
	var key, name string
	if ns == "" {
		key = string(o.Name)
		name = key
	} else {
		key = ns + "/" + string(o.Name)
		name = key[len(ns)+1:] // (the key's bytes: one string for both)
	}
	return newRowObject(&Row{Key: key, Namespace: ns, Name: name, UID: types.UID(o.UID),
		ResourceVersion: string(o.ResourceVersion), Cells: cells, text: text}, nil)
}
