package verbs

import (
	"bytes"
	"errors"
	"io"
	"sync/atomic"

	"github.com/moby/term"
)

// detachKeys are kubectl attach's default --detach-keys: ctrl-p ctrl-q.
const detachKeys = "\x10\x11"

// ctrlC is the byte ctrl-c sends in raw mode.
const ctrlC = 0x03

// detachReader is the user's keys while attached: it passes them on until the detach keys, held back until
// they are known to be other keys (moby's escape proxy, as kubectl's detachable reader), or with andCtrlC a
// ctrl-c; then it calls detach and ends (io.EOF). n counts the bytes passed on.
type detachReader struct {
	keys     io.Reader
	andCtrlC bool
	detach   func()
	n        atomic.Int64
}

// newDetachReader reads in (andCtrlC: ctrl-c detaches too) and calls detach once the user detaches.
func newDetachReader(in io.Reader, andCtrlC bool, detach func()) *detachReader {
	return &detachReader{keys: term.NewEscapeProxy(in, []byte(detachKeys)), andCtrlC: andCtrlC, detach: detach}
}

func (r *detachReader) Read(p []byte) (int, error) {
	n, err := r.keys.Read(p)
	if i := bytes.IndexByte(p[:n], ctrlC); r.andCtrlC && i >= 0 {
		n, err = i, term.EscapeError{}
	}
	r.n.Add(int64(n))
	if errors.Is(err, term.EscapeError{}) {
		r.detach()
		return n, io.EOF
	}
	return n, err
}
