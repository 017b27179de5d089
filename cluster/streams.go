package cluster

import (
	"context"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// Streams are the long-lived connections into a pod: a container's log, a command run in a container, a
// local port forwarded to a pod. Implementations are safe for concurrent use, and each call is independent of
// the others. Unlike the other roles, these calls may outlive one request: each method says how long it
// blocks and what keeps running after it returns.
type Streams interface {
	// Logs opens one container's log as req asks (pods/log); the caller reads and closes it. With
	// req.Follow the stream stays open until ctx ends or the server ends it.
	Logs(ctx context.Context, req LogRequest) (io.ReadCloser, error)
	// Exec runs req.Command in a container of a pod with req's streams attached, as `kubectl exec` does
	// (WebSocket, else SPDY), until the command exits or ctx ends. A command that exits non-zero is an
	// error wrapping k8s.io/client-go/util/exec.CodeExitError. It blocks for the command's whole life.
	Exec(ctx context.Context, req ExecRequest) error
	// Attach connects req's streams to the process a container of a pod already runs (the one its image
	// starts), as `kubectl attach` does (subresource attach; WebSocket, else SPDY), until that process ends,
	// the server closes the stream, or ctx ends (then ctx's error: how a client detaches, the process going
	// on). It blocks for the attachment's whole life.
	Attach(ctx context.Context, req AttachRequest) error
	// PortForward listens on req's local port and forwards each connection to the pod's port, as `kubectl
	// port-forward` does, until ctx ends or the forward fails (the pod gone, being deleted or no longer
	// running, the connection to it lost). It returns once listening, with the local port (the one chosen when
	// req.LocalPort is 0), or with the error that prevented it (the address in use, the pod not running,
	// read-only mode). ended then receives one value when the forward is over (nil when ctx ended, else
	// why) and is closed.
	PortForward(ctx context.Context, req PortForwardRequest) (local int, ended <-chan error, err error)
}

// LogRequest is one container's log as Streams.Logs asks for it (the fields of kubectl logs).
type LogRequest struct {
	Namespace, Pod, Container string
	// Previous asks for the previous instance of the container (kubectl logs -p).
	Previous bool
	// Follow keeps the stream open for new lines (kubectl logs -f).
	Follow bool
	// TailLines > 0 starts with the last TailLines lines; 0 sends them all.
	TailLines int64
	// Since, when not zero, starts at that time (the server reads it to the second).
	Since time.Time
	// SinceSeconds > 0 starts that many seconds before now, by the node's clock (kubectl logs --since);
	// never set with Since (the server takes one of them).
	SinceSeconds int64
	// Timestamps puts the kubelet's RFC 3339 timestamp and a space before each line.
	Timestamps bool
}

// ExecRequest is one command to run in a container (see Streams.Exec). Exec uses its streams from goroutines
// of its own until it returns; the caller must not share them meanwhile.
type ExecRequest struct {
	Namespace, Pod, Container string
	Command                   []string
	Stdin                     io.Reader
	Stdout, Stderr            io.Writer
	// TTY asks for a terminal in the container (Stderr is then unused: the terminal merges it).
	TTY bool
	// Sizes, when set with TTY, returns the terminal's size, then each change, blocking in between; nil
	// when there are no more.
	Sizes func() *TerminalSize
}

// AttachRequest is one attachment to a container's process (see Streams.Attach). Attach uses its streams
// from goroutines of its own until it returns; the caller must not share them meanwhile.
type AttachRequest struct {
	Namespace, Pod, Container string
	// Stdin, when set, is sent to the process (kubectl attach -i); a container reads it only when its spec
	// has stdin.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// TTY is the container's own terminal (kubectl attach -t): as kubectl does, set it exactly when the
	// container's spec has tty (a mismatch garbles the stream). Stderr is then unused: the terminal merges it.
	TTY bool
	// Sizes, when set with TTY, returns the terminal's size, then each change, blocking in between; nil
	// when there are no more.
	Sizes func() *TerminalSize
}

// TerminalSize is a terminal's size in cells.
type TerminalSize struct {
	Width, Height uint16
}

// PortForwardRequest is one forward of a local port to a pod's port (see Streams.PortForward); a plain
// value.
type PortForwardRequest struct {
	Namespace, Pod string
	// UID, when set, is the pod's UID: a pod of that name with another UID (re-created) is refused, and the
	// forward ends once the pod of that name has another one.
	UID types.UID
	// Address is the local address listened on ("127.0.0.1").
	Address string
	// LocalPort is the local port (0: any free one); PodPort the pod's.
	LocalPort, PodPort int
}
