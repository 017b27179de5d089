package kubeproto

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"k8s.io/apimachinery/pkg/watch"
)

// The field numbers of a watch event, from k8s.io/apimachinery's meta/v1 and runtime generated.proto.
const (
	watchEventTypeField   = 1 // WatchEvent.type
	watchEventObjectField = 2 // WatchEvent.object (runtime.RawExtension)
	rawExtensionRawField  = 1 // RawExtension.raw: the object, encoded as a body (magic, runtime.Unknown)
)

// WatchReader reads the events of a protobuf watch stream (application/vnd.kubernetes.protobuf;stream=watch)
// as client-go's own decoder (rest/watch.Decoder over the length-delimited framer) reads them, leaving their
// objects to the caller: each frame is a 4-byte big-endian length and a WatchEvent in raw protobuf (no magic,
// no envelope), whose object is a RawExtension holding a complete protobuf body (magic, runtime.Unknown) —
// checked against the devcluster's apiserver. Frames are read into one reused buffer. Used by one goroutine.
type WatchReader struct {
	r       *bufio.Reader
	max     int
	buf     []byte
	started bool
}

// NewWatchReader returns a reader of the watch stream r whose frames are at most maxFrame bytes.
func NewWatchReader(r io.Reader, maxFrame int) *WatchReader {
	return &WatchReader{r: bufio.NewReaderSize(r, 32<<10), max: maxFrame}
}

// Next returns the next event: its type (ADDED, MODIFIED, DELETED, BOOKMARK or ERROR; another is an error)
// and its object as a whole protobuf body (for Unwrap), which aliases the reader's buffer until the next
// call. It returns io.EOF when the server ended the stream between two events and io.ErrUnexpectedEOF when it
// broke off inside one, as a watch.StreamWatcher expects; a stream that opens in JSON is ErrNotProtobuf.
func (w *WatchReader) Next() (watch.EventType, []byte, error) {
	var head [4]byte
	if _, err := io.ReadFull(w.r, head[:]); err != nil {
		if err == io.ErrUnexpectedEOF && !w.started && head[0] == '{' {
			return "", nil, NotProtobuf(head[:])
		}
		return "", nil, err // io.EOF, io.ErrUnexpectedEOF, or the connection's error as it is
	}
	if !w.started && head[0] == '{' {
		return "", nil, NotProtobuf(head[:])
	}
	w.started = true
	n := binary.BigEndian.Uint32(head[:])
	if int64(n) > int64(w.max) {
		return "", nil, fmt.Errorf("a watch event of %d bytes", n)
	}
	if cap(w.buf) < int(n) {
		w.buf = make([]byte, n)
	}
	w.buf = w.buf[:n]
	if _, err := io.ReadFull(w.r, w.buf); err != nil {
		return "", nil, UnexpectedEOF(err)
	}
	return event(w.buf)
}

// event reads the WatchEvent b.
func event(b []byte) (watch.EventType, []byte, error) {
	var typ, object []byte
	hasObject := false
	for len(b) > 0 {
		f, rest, err := Next(b)
		if err != nil {
			return "", nil, fmt.Errorf("watch event: %w", err)
		}
		switch f.Num {
		case watchEventTypeField:
			if err := WantBytes("watch event type", f.Type); err != nil {
				return "", nil, err
			}
			typ = f.Bytes
		case watchEventObjectField:
			if err := WantBytes("watch event object", f.Type); err != nil {
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
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark, watch.Error:
	default:
		return "", nil, fmt.Errorf("invalid watch event type %q", typ)
	}
	if !hasObject {
		return "", nil, fmt.Errorf("watch %s event without an object", et)
	}
	return et, object, nil
}

// rawExtension returns the raw bytes of the RawExtension b (the last raw field), aliasing b.
func rawExtension(b []byte) ([]byte, error) {
	var raw []byte
	for len(b) > 0 {
		f, rest, err := Next(b)
		if err != nil {
			return nil, err
		}
		if f.Num == rawExtensionRawField {
			if err := WantBytes("raw", f.Type); err != nil {
				return nil, err
			}
			raw = f.Bytes
		}
		b = rest
	}
	return raw, nil
}
