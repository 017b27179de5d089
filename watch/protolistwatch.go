package watch

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"

	"kscope/kubeproto"
)

// rowCodec turns the objects of one built-in kind, as the server sends them, into the rows of an ObjectSource:
// from their protobuf encoding (a list's item, a watch frame's object, without the runtime.Unknown wrapper)
// or, from a server that answers in JSON, from the object decoded whole. Only the row is kept of an object.
// Implementations are safe for concurrent use (a list and a watch of the same reflector may decode at once).
type rowCodec interface {
	// Kind is the kind of the objects ("Pod"); ListKind that of their list ("PodList").
	Kind() string
	ListKind() string
	// protoRow returns the row of an object's protobuf encoding.
	protoRow(raw []byte) (*rowObject, error)
	// jsonRow returns the row of an object decoded from JSON.
	jsonRow(u *unstructured.Unstructured) (*rowObject, error)
}

// The media types the protobuf ListWatch asks for: protobuf, which its rowCodec reads, else JSON (a server or
// a proxy that cannot write protobuf), which protojson.go reads.
const (
	protoListAccept  = "application/vnd.kubernetes.protobuf, application/json"
	protoWatchAccept = "application/vnd.kubernetes.protobuf;stream=watch, application/json"
	jsonAccept       = "application/json"
)

// maxProtoItem bounds one object (or one watch frame) as client-go's streaming decoder bounds a frame: the
// apiserver refuses objects above 1.5 MiB whole.
const maxProtoItem = 16 << 20

// protoListWatch lists and watches the objects of one built-in resource (the source of a HEALTH column or of
// custom columns) in protobuf and turns each, as it is read, into its row (codec): a HEALTH column's kstatus
// word (healthCodec), or the cells of JSONPath columns (columnsCodec). The list is read as a stream
// (kubeproto.ReadList) and no object is held past its row: a row is all that is kept of it. It implements
// cache.ListerWatcher and cache.ListerWatcherWithContext for a reflector (ObjectSource.run), passing the
// reflector's options through with the view's selectors. It declares streaming lists unsupported, so the
// reflector lists, then watches. Its methods may be called from several goroutines.
type protoListWatch struct {
	client *rest.RESTClient
	spec   Spec
	codec  rowCodec
	// jsonOnly asks for JSON only: the codec reads no protobuf (jsonCodec).
	jsonOnly bool
	// connected is called after each successful list or watch request; disconnected when a watch request
	// fails, its stream breaks or the server ends it with an ERROR event (as tableListWatch's).
	connected    func()
	disconnected func(error)
	// early, when set, is given each row of the lists read before the first list completes, as it is
	// decoded: a list of 50k pods in protobuf takes seconds to arrive, and its first rows show meanwhile (the
	// reflector's Replace then stores the same row objects, which changes nothing). Later lists (a relist
	// after 410 Gone) are taken whole, by Replace only, so that what they lack is deleted at once.
	early  func(*rowObject)
	listed atomic.Bool
}

// request returns a GET of the resource's collection in the view's namespace with opts and the view's
// selectors, accepting accept.
func (lw *protoListWatch) request(opts metav1.ListOptions, accept string) *rest.Request {
	opts.LabelSelector, opts.FieldSelector = lw.spec.LabelSelector, lw.spec.FieldSelector
	ns := lw.spec.Namespace
	if !lw.spec.Namespaced {
		ns = ""
	}
	return lw.client.Get().AbsPath(resourcePath(lw.spec.GVR, ns)).
		SpecificallyVersionedParams(&opts, metav1.ParameterCodec, metav1.SchemeGroupVersion).SetHeader("Accept", accept)
}

// accept returns proto, the media types of a request that the codec reads in protobuf, or JSON alone.
func (lw *protoListWatch) accept(proto string) string {
	if lw.jsonOnly {
		return jsonAccept
	}
	return proto
}

// ListWithContext lists the resource in one response, read as it arrives. The reflector's first list
// (resourceVersion "0", a page limit) is asked for as a consistent read of the whole list, as the Table
// ListWatch asks for it (see tableListWatch.ListWithContext): the column's rows are those of the table.
func (lw *protoListWatch) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	if opts.ResourceVersion == "0" {
		opts.ResourceVersion, opts.ResourceVersionMatch, opts.Limit = "", "", 0
	}
	opts.Watch = false
	body, err := lw.request(opts, lw.accept(protoListAccept)).Stream(ctx)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	defer body.Close()
	list, err := lw.decodeList(bufio.NewReaderSize(body, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", lw.spec.GVR.String(), err)
	}
	lw.listed.Store(true)
	if lw.connected != nil {
		lw.connected()
	}
	return list, nil
}

// decodeList reads a list body: protobuf, read item by item (kubeproto.ReadList), or JSON (decodeJSONList).
func (lw *protoListWatch) decodeList(r *bufio.Reader) (*rowList, error) {
	if first, _ := r.Peek(1); len(first) == 1 && first[0] == '{' {
		return lw.decodeJSONList(r)
	}
	list := &rowList{Items: []*rowObject{}}
	err := kubeproto.ReadList(r, lw.codec.ListKind(), maxProtoItem, kubeproto.ListHandler{
		Meta: func(m metav1.ListMeta) error {
			list.ListMeta = m
			return nil
		},
		Item: func(b []byte) error {
			o, err := lw.codec.protoRow(b)
			return lw.addRow(list, o, err)
		},
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}

// addRow appends o, the row of list's next item, to list (err: the codec could not read that item), and
// shows it early while the first list is read.
func (lw *protoListWatch) addRow(list *rowList, o *rowObject, err error) error {
	if err != nil {
		return fmt.Errorf("item %d: %w", len(list.Items), err)
	}
	list.Items = append(list.Items, o)
	if lw.early != nil && !lw.listed.Load() {
		lw.early(o)
	}
	return nil
}

// WatchWithContext watches the resource: a watch.StreamWatcher over a protoWatchDecoder.
func (lw *protoListWatch) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true
	body, err := lw.request(opts, lw.accept(protoWatchAccept)).Stream(ctx)
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
	dec := &protoWatchDecoder{body: body, r: bufio.NewReaderSize(body, 32<<10), lw: lw, ctx: ctx}
	return watch.NewStreamWatcher(dec, apierrors.NewClientErrorReporter(http.StatusInternalServerError, "GET",
		"ClientWatchDecoding")), nil
}

// List implements cache.Lister.
func (lw *protoListWatch) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

// Watch implements cache.Watcher.
func (lw *protoListWatch) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// IsWatchListSemanticsUnSupported tells the reflector to list, then watch: a streamed list's bookmark
// annotation is not kept.
func (lw *protoListWatch) IsWatchListSemanticsUnSupported() bool { return true }

// protoWatchDecoder decodes a watch stream of the resource into rows (watch.Decoder): protobuf frames
// (kubeproto.WatchReader), each object read by the ProtoKind, or JSON events (jsonEvents) where the server
// answered in JSON. An ERROR event's Status is passed on for the reflector (410 Gone makes it relist); a
// broken stream or an ERROR event is reported to lw.disconnected. Used by the StreamWatcher's goroutine only.
type protoWatchDecoder struct {
	body   io.ReadCloser
	r      *bufio.Reader
	lw     *protoListWatch
	ctx    context.Context
	events *kubeproto.WatchReader
	json   *jsonEvents
}

// Decode returns the next event.
func (d *protoWatchDecoder) Decode() (watch.EventType, runtime.Object, error) {
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

func (d *protoWatchDecoder) decode() (watch.EventType, runtime.Object, error) {
	if d.events == nil && d.json == nil {
		if first, _ := d.r.Peek(1); len(first) == 1 && first[0] == '{' {
			d.json = newJSONEvents(d.r, d.lw)
		} else {
			d.events = kubeproto.NewWatchReader(d.r, maxProtoItem)
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
	case kind != d.lw.codec.Kind():
		return "", nil, fmt.Errorf("watch %s event: a %q where a %s was expected", et, kind, d.lw.codec.Kind())
	}
	o, err := d.lw.codec.protoRow(raw)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", et, err)
	}
	return et, o, nil
}

// Close closes the stream.
func (d *protoWatchDecoder) Close() { _ = d.body.Close() }
