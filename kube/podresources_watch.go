package kube

import (
	"errors"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"

	"kscope/kubeproto"
)

// podWatchDecoder reads the protobuf watch stream of pods (application/vnd.kubernetes.protobuf;stream=watch)
// for a watch.StreamWatcher, as client-go's own decoder reads it (kubeproto.WatchReader), without decoding the
// pods whole.
//
// ADDED, MODIFIED, DELETED and BOOKMARK events carry a Pod, returned as a podResource (a BOOKMARK's has only
// its resourceVersion). An ERROR event's object (a metav1.Status) is decoded as client-go decodes it and
// returned as it is, so that the StreamWatcher passes it on and the reflector turns it into the API error it
// expects (apierrors.FromObject; 410 Gone makes it relist). Decode returns io.EOF when the server ended the
// stream between two events, io.ErrUnexpectedEOF when it broke off inside one, as the StreamWatcher expects.
// Used by the StreamWatcher's goroutine only.
type podWatchDecoder struct {
	body   io.ReadCloser
	events *kubeproto.WatchReader
	pods   podDecoder
}

// newPodWatchDecoder returns a decoder of body that decodes pods with pods.
func newPodWatchDecoder(body io.ReadCloser, pods podDecoder) *podWatchDecoder {
	return &podWatchDecoder{body: body, events: kubeproto.NewWatchReader(body, maxPodBytes), pods: pods}
}

var _ watch.Decoder = (*podWatchDecoder)(nil)

// Decode implements watch.Decoder: it returns the next event.
func (d *podWatchDecoder) Decode() (watch.EventType, runtime.Object, error) {
	et, object, err := d.events.Next()
	if err != nil {
		return "", nil, err
	}
	if et == watch.Error {
		// As client-go's rest/watch.Decoder decodes every event's object.
		obj, err := runtime.Decode(scheme.Codecs.UniversalDeserializer(), object)
		if err != nil {
			return "", nil, fmt.Errorf("decode watch error event: %w", err)
		}
		return et, obj, nil
	}
	pod, err := d.pods.object(object)
	if err != nil {
		return "", nil, fmt.Errorf("watch %s event: %w", et, err)
	}
	return et, pod, nil
}

// Close implements watch.Decoder: it closes the stream.
func (d *podWatchDecoder) Close() { _ = d.body.Close() }

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
