package watch

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"kscope/health"
)

// healthEvents are watch events of every type, ending with 410 Gone.
func healthEvents() []watch.Event {
	pods := healthPods()
	bookmark := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "21"}}
	gone := &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired, Message: "too old"}
	return []watch.Event{{Type: watch.Added, Object: pods[2]}, {Type: watch.Modified, Object: pods[0]},
		{Type: watch.Deleted, Object: pods[6]}, {Type: watch.Bookmark, Object: bookmark}, {Type: watch.Error, Object: gone}}
}

// decodeHealthWatch decodes a watch stream of pods in protobuf or JSON, returning its events, the error that
// ended it and the errors reported as disconnections.
func decodeHealthWatch(body []byte) ([]watch.Event, error, []error) {
	var disconnected []error
	lw := &protoListWatch{codec: healthCodec{kind: health.ProtoKindFor(podsGVR()), rows: newHealthRows()},
		disconnected: func(err error) { disconnected = append(disconnected, err) }}
	d := &protoWatchDecoder{body: io.NopCloser(nil), r: bufio.NewReader(bytes.NewReader(body)), lw: lw, ctx: context.Background()}
	var events []watch.Event
	for {
		typ, obj, err := d.Decode()
		if err != nil {
			return events, err, disconnected
		}
		events = append(events, watch.Event{Type: typ, Object: obj})
	}
}

// encodeHealthWatch encodes events as the API server writes a watch stream.
func encodeHealthWatch(events []watch.Event, proto bool) []byte {
	var b bytes.Buffer
	enc := watchEncoder(&b, proto)
	for _, ev := range events {
		enc(ev.Type, ev.Object)
	}
	return b.Bytes()
}

// TestHealthWatchDecoder: a watch stream, protobuf or JSON, decodes to the rows of its pods (a bookmark to its
// resourceVersion), and its ERROR event to the Status the reflector relists on, reported as a disconnection; a
// stream cut inside an event ends with io.ErrUnexpectedEOF, reported too; a clean end with io.EOF, not.
func TestHealthWatchDecoder(t *testing.T) {
	for _, proto := range []bool{true, false} {
		body := encodeHealthWatch(healthEvents(), proto)
		events, err, disconnected := decodeHealthWatch(body)
		if err != io.EOF || len(events) != 5 {
			t.Fatalf("protobuf %v: %d events, %v", proto, len(events), err)
		}
		rows := []string{}
		for _, ev := range events[:4] {
			r := ev.Object.(*rowObject).get()
			rows = append(rows, string(ev.Type)+" "+r.Key+" "+r.ResourceVersion+" "+strings.Join(r.Cells, ","))
		}
		if got, want := strings.Join(rows, "; "), "ADDED shop/crashing  Failed; MODIFIED shop/ready  Current; "+
			"DELETED shop/deleting  Terminating; BOOKMARK  21 InProgress"; got != want {
			t.Errorf("protobuf %v: %s\nwant %s", proto, got, want)
		}
		if err := apierrors.FromObject(events[4].Object); !apierrors.IsResourceExpired(err) || len(disconnected) != 1 ||
			!apierrors.IsResourceExpired(disconnected[0]) {
			t.Errorf("protobuf %v: the ERROR event %v, disconnected %v", proto, err, disconnected)
		}
		_, err, disconnected = decodeHealthWatch(body[:len(body)/2])
		if err != io.ErrUnexpectedEOF || len(disconnected) != 1 {
			t.Errorf("protobuf %v: cut: %v, disconnected %v", proto, err, disconnected)
		}
	}
}

// TestHealthWatchDecoderOtherKind: an event of another kind than the watch's is an error.
func TestHealthWatchDecoderOtherKind(t *testing.T) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	for _, proto := range []bool{true, false} {
		_, err, _ := decodeHealthWatch(encodeHealthWatch([]watch.Event{{Type: watch.Added, Object: runtime.Object(ns)}}, proto))
		if err == nil || !strings.Contains(err.Error(), "where a Pod was expected") {
			t.Errorf("protobuf %v: %v", proto, err)
		}
	}
}
