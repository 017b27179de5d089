package watch

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"kscope/kubeproto"
)

// closeCounter is a body that counts its Close calls.
type closeCounter struct {
	io.Reader
	closed atomic.Int32
}

func (c *closeCounter) Close() error { c.closed.Add(1); return nil }

// TestMetaStreamInOrder: a metaStream hands over every object of the list in order, in chunks, then ends;
// its list metadata comes first, and stop reports no error and closes the body.
func TestMetaStreamInOrder(t *testing.T) {
	for _, n := range []int{0, 1, metaChunk, 3*metaChunk + 7} {
		body := encodeMetadataList(t, sampleMetadataList(n))
		want, wantList, err := decodeMetadataList(bytes.NewReader(body), nil)
		if err != nil {
			t.Fatal(err)
		}
		b := &closeCounter{Reader: bytes.NewReader(body)}
		s := startMetaStream(b, nil, nil)
		list, ok := s.listMeta()
		if !ok || list.ResourceVersion != wantList.ResourceVersion || list.Continue != wantList.Continue {
			t.Fatalf("%d objects: list metadata %+v (%v), want %+v", n, list, ok, wantList)
		}
		got := []wireMeta{}
		for m, ok := s.next(); ok; m, ok = s.next() {
			got = append(got, m)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d objects: handed over %d, not the list's", n, len(got))
		}
		if err := s.stop(); err != nil || b.closed.Load() != 1 {
			t.Errorf("%d objects: stop: %v, body closed %d times", n, err, b.closed.Load())
		}
	}
}

// TestMetaStreamReadsAhead: the stream reads at most metaChunks chunks ahead of its reader (it never holds
// the whole list), and stopping it early ends its reading without an error.
func TestMetaStreamReadsAhead(t *testing.T) {
	const n = 40 * metaChunk
	body := encodeMetadataList(t, sampleMetadataList(n))
	var read atomic.Int64
	s := startMetaStream(io.NopCloser(bytes.NewReader(body)), func(b int64) { read.Add(b) }, nil)
	if _, ok := s.listMeta(); !ok {
		t.Fatal(s.stop())
	}
	m, _ := s.next()
	deadline := time.Now().Add(10 * time.Second)
	for len(s.chunks) < metaChunks { // the reader blocks once the chunks ahead are full
		if time.Now().After(deadline) {
			t.Fatalf("%d chunks ahead after 10 s", len(s.chunks))
		}
		time.Sleep(time.Millisecond)
	}
	perItem := int64(len(body)) / n
	if got, limit := read.Load(), perItem*int64((metaChunks+2)*metaChunk)+64<<10; got > limit {
		t.Errorf("read %d of %d bytes with one object taken, want at most %d", got, len(body), limit)
	}
	if m.Name != "pod-00000" {
		t.Errorf("first object %q", m.Name)
	}
	if err := s.stop(); err != nil {
		t.Errorf("stop early: %v", err)
	}
}

// TestMetaStreamFailures: a list cut short ends the objects and stop reports why; a body that is not protobuf
// has no list metadata, and stop says so.
func TestMetaStreamFailures(t *testing.T) {
	body := encodeMetadataList(t, sampleMetadataList(2*metaChunk))
	s := startMetaStream(io.NopCloser(bytes.NewReader(body[:len(body)-10])), nil, nil)
	if _, ok := s.listMeta(); !ok {
		t.Fatal("no list metadata from a list cut at its end")
	}
	got := 0
	for _, ok := s.next(); ok; _, ok = s.next() {
		got++
	}
	if err := s.stop(); err == nil || got >= 2*metaChunk {
		t.Errorf("cut list: %d objects, stop %v; want fewer than %d and an error", got, err, 2*metaChunk)
	}
	s = startMetaStream(io.NopCloser(bytes.NewReader([]byte(`{"kind":"Status"}`))), nil, nil)
	if _, ok := s.listMeta(); ok {
		t.Fatal("list metadata from JSON")
	}
	if err := s.stop(); !errors.Is(err, kubeproto.ErrNotProtobuf) {
		t.Errorf("JSON body: %v, want ErrNotProtobuf", err)
	}
}
