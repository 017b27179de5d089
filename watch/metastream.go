package watch

import (
	"errors"
	"io"
	"sync"

	"kscope/spawn"
)

// metaChunk is the number of objects a metaStream hands over at a time; metaChunks the number of chunks it
// reads ahead of the row decoder.
const (
	metaChunk  = 512
	metaChunks = 4
)

// errItemsFirst is the error of a metadata list whose items do not follow its list metadata.
var errItemsFirst = errors.New("metadata list without its list metadata first")

// errMetaStreamStopped ends the reading of a metaStream whose reader stopped early.
var errMetaStreamStopped = errors.New("metadata list no longer read")

// metaSource hands the row decoder the metadata of the rows it joins, in order (rowDecoder.join).
type metaSource interface {
	// next returns the next object's metadata, or false when there is none left.
	next() (wireMeta, bool)
}

// metaStream is a metaSource over a metadata list read on a goroutine of its own while the rows it joins are
// decoded: its objects are handed over metaChunk at a time, at most metaChunks ahead, so that the metadata of
// a whole list is never held at once. Its methods are called by one goroutine.
type metaStream struct {
	body   io.ReadCloser
	list   chan wireMeta   // the list's metadata, sent once; closed without it when the list fails before
	chunks chan []wireMeta // closed once the reading ended; err is set before
	stopc  chan struct{}
	once   sync.Once
	err    error
	cur    []wireMeta
}

// startMetaStream reads the PartialObjectMetadataList of body (count, if set, gets the bytes of every read)
// on a goroutine of its own (started with start); stop closes body.
func startMetaStream(body io.ReadCloser, count func(int64), start spawn.Func) *metaStream {
	s := &metaStream{body: body, list: make(chan wireMeta, 1), chunks: make(chan []wireMeta, metaChunks),
		stopc: make(chan struct{})}
	r := countReads(body, count)
	start.Go(func() { s.read(r) })
	return s
}

func (s *metaStream) read(r io.Reader) {
	sent := false
	chunk := make([]wireMeta, 0, metaChunk)
	send := func() error {
		select {
		case s.chunks <- chunk:
			chunk = make([]wireMeta, 0, metaChunk)
			return nil
		case <-s.stopc:
			return errMetaStreamStopped
		}
	}
	_, err := readMetadataList(r, func(m wireMeta) {
		sent = true
		s.list <- m
	}, func(m wireMeta) error {
		if !sent { // (the server writes the list's metadata first; the rows wait for it)
			return errItemsFirst
		}
		chunk = append(chunk, m)
		if len(chunk) == metaChunk {
			return send()
		}
		return nil
	})
	if err == nil && len(chunk) > 0 {
		err = send()
	}
	if err == nil && !sent {
		err = errItemsFirst
	}
	select {
	case <-s.stopc:
		err = errMetaStreamStopped // (a read of the body stop closed)
	default:
	}
	s.err = err
	if !sent {
		close(s.list)
	}
	close(s.chunks)
}

// listMeta waits for the list's metadata; false when the list failed before it (stop says why).
func (s *metaStream) listMeta() (wireMeta, bool) {
	m, ok := <-s.list
	return m, ok
}

// next returns the next object's metadata; false at the end of the list, or when it failed.
func (s *metaStream) next() (wireMeta, bool) {
	for len(s.cur) == 0 {
		c, ok := <-s.chunks
		if !ok {
			return wireMeta{}, false
		}
		s.cur = c
	}
	m := s.cur[0]
	s.cur = s.cur[1:]
	return m, true
}

// stop ends the reading if it has not ended (closing the body), waits for it, and returns the list's
// error: nil when it was read to its end, or stopped before.
func (s *metaStream) stop() error {
	s.once.Do(func() {
		close(s.stopc)
		s.body.Close()
	})
	for range s.chunks {
	}
	if errors.Is(s.err, errMetaStreamStopped) {
		return nil
	}
	return s.err
}
