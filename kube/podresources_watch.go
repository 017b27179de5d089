package kube

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"

	"kscope/kubeproto"
)

// The field numbers of a watch event, from k8s.io/apimachinery's meta/v1 and runtime generated.proto.
const (
	watchEventTypeField   = 1 // WatchEvent.type
	watchEventObjectField = 2 // WatchEvent.object (runtime.RawExtension)
	rawExtensionRawField  = 1 // RawExtension.raw: the object, encoded as a body (magic, runtime.Unknown)
)

// podWatchDecoder reads the protobuf watch stream of pods (application/vnd.kubernetes.protobuf;stream=watch)
// for a watch.StreamWatcher, as client-go's own decoder (rest/watch.Decoder over the length-delimited
// framer) reads it, without decoding the pods whole. Each frame is a 4-byte big-endian length and a
// WatchEvent in raw protobuf (no magic, no envelope); its object is a RawExtension holding a complete
// protobuf body (magic, runtime.Unknown{typeMeta, raw}) — checked against the devcluster's apiserver.
//
// ADDED, MODIFIED, DELETED and BOOKMARK events carry a Pod, returned as a podResource (a BOOKMARK's has only
// its resourceVersion). An ERROR event's object (a metav1.Status) is decoded as client-go decodes it and
// returned as it is, so that the StreamWatcher passes it on and the reflector turns it into the API error it
// expects (apierrors.FromObject; 410 Gone makes it relist). Decode returns io.EOF when the server ended the
// stream between two events, io.ErrUnexpectedEOF when it broke off inside one, as the StreamWatcher expects.
// Frames are read into one reused buffer. Used by the StreamWatcher's goroutine only.
type podWatchDecoder struct {
	body    io.ReadCloser
	r       *bufio.Reader
	pods    podDecoder
	buf     []byte
	started bool
}

// newPodWatchDecoder returns a decoder of body that decodes pods with pods.
func newPodWatchDecoder(body io.ReadCloser, pods podDecoder) *podWatchDecoder {
	return &podWatchDecoder{body: body, r: bufio.NewReaderSize(body, 32<<10), pods: pods}
}

var _ watch.Decoder = (*podWatchDecoder)(nil)

// Decode implements watch.Decoder: it returns the next event.
func (d *podWatchDecoder) Decode() (watch.EventType, runtime.Object, error) {
	var head [4]byte
	if _, err := io.ReadFull(d.r, head[:]); err != nil {
		if err == io.ErrUnexpectedEOF && !d.started && head[0] == '{' {
			return "", nil, kubeproto.NotProtobuf(head[:])
		}
		return "", nil, err // io.EOF, io.ErrUnexpectedEOF, or the connection's error as it is
	}
	if !d.started && head[0] == '{' {
		return "", nil, kubeproto.NotProtobuf(head[:])
	}
	d.started = true
	n := binary.BigEndian.Uint32(head[:])
	if n > maxPodBytes {
		return "", nil, fmt.Errorf("a watch event of %d bytes", n)
	}
	if cap(d.buf) < int(n) {
		d.buf = make([]byte, n)
	}
	d.buf = d.buf[:n]
	if _, err := io.ReadFull(d.r, d.buf); err != nil {
		return "", nil, kubeproto.UnexpectedEOF(err)
	}
	return d.event(d.buf)
}

// Close implements watch.Decoder: it closes the stream.
func (d *podWatchDecoder) Close() { _ = d.body.Close() }

// event decodes the WatchEvent b.
func (d *podWatchDecoder) event(b []byte) (watch.EventType, runtime.Object, error) {
	var typ, object []byte
	hasObject := false
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return "", nil, fmt.Errorf("watch event: %w", err)
		}
		switch f.Num {
		case watchEventTypeField:
			if err := kubeproto.WantBytes("watch event type", f.Type); err != nil {
				return "", nil, err
			}
			typ = f.Bytes
		case watchEventObjectField:
			if err := kubeproto.WantBytes("watch event object", f.Type); err != nil {
				return "", nil, err
			}
			if object, err = rawExtension(f.Bytes); err != nil {
				return "", nil, fmt.Errorf("watch event object: %w", err)
			}
			hasObject = true
		}
		b = rest
	}
	et := watch.EventType(typ)
	switch et {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
	case watch.Error:
		// As client-go's rest/watch.Decoder decodes every event's object.
		obj, err := runtime.Decode(scheme.Codecs.UniversalDeserializer(), object)
		if err != nil {
			return "", nil, fmt.Errorf("decode watch error event: %w", err)
		}
		return et, obj, nil
	default:
		return "", nil, fmt.Errorf("invalid watch event type %q", typ)
	}
	if !hasObject {
		return "", nil, fmt.Errorf("watch %s event without an object", et)
	}
	pod, err := d.pods.object(object)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", et, err)
	}
	return et, pod, nil
}

// rawExtension returns the raw bytes of the RawExtension b (the last raw field), aliasing b.
func rawExtension(b []byte) ([]byte, error) {
	var raw []byte
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return nil, err
		}
		if f.Num == rawExtensionRawField {
			if err := kubeproto.WantBytes("raw", f.Type); err != nil {
				return nil, err
			}
			raw = f.Bytes
		}
		b = rest
	}
	return raw, nil
}

// object decodes b, one Pod encoded as a whole protobuf body (magic, runtime.Unknown{typeMeta, raw}).
func (d podDecoder) object(b []byte) (*podResource, error) {
	kind, raw, err := kubeproto.Unwrap(b)
	if err != nil {
		return nil, err
	}
	if kind != "Pod" {
		if kind == "" {
			return nil, errors.New("an object without its kind")
		}
		return nil, fmt.Errorf("a %s where a Pod was expected", kind)
	}
	return d.pod(raw)
}
