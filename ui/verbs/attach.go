package verbs

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// attachVerb attaches to the process a pod's container runs (kubectl attach -it: create on pods/attach).
var attachVerb = verb{key: keymap.Keys.Object.Attach,
	need:    accessNeed{verb: "create", subresource: "attach", resource: podsGVR},
	applies: only(isPods, "attached to", "pods"), start: (*Verbs).startAttach}

// startAttach reads the pod, asks for the container when it has several, then attaches to it.
func (v *Verbs) startAttach(_ discovery.Resource, row *watch.Row) { v.StartAttachIn(row, "") }

// StartAttachIn reads the pod of row, which must be running, then attaches to container ("": the only one,
// else the one the user picks), which must be running too. UI goroutine.
func (v *Verbs) StartAttachIn(row *watch.Row, container string) {
	v.inContainer("attach", "attach to which container of ", row, container, func(pod *corev1.Pod, container string) {
		a, err := attachTargetOf(pod, container)
		if err != nil {
			v.Errorf("attach %s: %s", row.Key, err)
			return
		}
		v.attach(v.Cluster(), a)
	})
}

// attachTarget is a container to attach to, with what its spec says of its input and terminal.
type attachTarget struct {
	namespace, pod, container string
	stdin, tty                bool
}

// what names it in messages: NS/POD (CONTAINER).
func (a attachTarget) what() string {
	return fmt.Sprintf("%s/%s (%s)", a.namespace, a.pod, a.container)
}

// attachTargetOf is container of pod (a container, an init or an ephemeral container) as its spec has it;
// an error when the pod has no such container or its status says it is not running.
func attachTargetOf(pod *corev1.Pod, container string) (attachTarget, error) {
	a := attachTarget{namespace: pod.Namespace, pod: pod.Name, container: container}
	specs := slices.Concat(pod.Spec.Containers, pod.Spec.InitContainers)
	for _, e := range pod.Spec.EphemeralContainers {
		specs = append(specs, corev1.Container(e.EphemeralContainerCommon))
	}
	i := slices.IndexFunc(specs, func(c corev1.Container) bool { return c.Name == container })
	if i < 0 {
		return a, fmt.Errorf("the pod has no container %q", container)
	}
	a.stdin, a.tty = specs[i].Stdin, specs[i].TTY
	for _, list := range [][]corev1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, s := range list {
			switch {
			case s.Name != container || s.State.Running != nil:
			case s.State.Terminated != nil:
				return a, fmt.Errorf("container %s has ended (%s), it is not running", container, s.State.Terminated.Reason)
			case s.State.Waiting != nil:
				return a, fmt.Errorf("container %s is waiting (%s), not running", container, s.State.Waiting.Reason)
			}
		}
	}
	return a, nil
}

// attach attaches to a with the TUI suspended (on the UI goroutine: nothing else draws until it is over),
// until the user detaches, the process ends or the server closes the stream; then it says which.
func (v *Verbs) attach(conn cluster.Interface, a attachTarget) {
	var end attachEnd
	if !v.Suspend(func() {
		_ = v.withTerminal(func(t streamTerminal) error {
			end = v.attachOn(conn, t, a)
			return nil
		})
	}) {
		v.Errorf("attach %s: no terminal to give it", a.what())
		return
	}
	v.attachEnded(a.what(), end)
}

// attachEnd is how an attachment ended.
type attachEnd struct {
	err error
	// detached: the user typed the detach keys (err is then the stream's cancellation).
	detached bool
	// quiet: no output came and no input went.
	quiet bool
}

// refused tells whether the attachment never was one: it failed before any output or input, the user
// having not detached nor kscope quit (a server that refuses or does not support attach ends so).
func (e attachEnd) refused(ctx context.Context) bool {
	return e.err != nil && !e.detached && e.quiet && ctx.Err() == nil
}

// attachOn attaches to a on t as kubectl attach -it does: the container's terminal when its spec has one,
// the user's keys sent when it reads them (ctrl-p ctrl-q detaches; ctrl-c too when the keys are not
// sent). It first says on t how to detach. It blocks until the attachment is over.
func (v *Verbs) attachOn(conn cluster.Interface, t streamTerminal, a attachTarget) attachEnd {
	ctx, cancel := context.WithCancel(v.Context())
	defer cancel()
	var detached atomic.Bool
	keys := newDetachReader(t.in, !a.stdin, func() {
		detached.Store(true)
		cancel()
	})
	out := t.out
	if t.raw && !a.tty {
		out = crlf{out}
	}
	if a.stdin {
		fmt.Fprintf(out, "kscope: attached to %s; detach with ctrl-p ctrl-q. If you don't see a command prompt, try pressing enter.\r\n", termSafe(a.what()))
	} else {
		fmt.Fprintf(out, "kscope: attached to the output of %s (it reads no input); detach with ctrl-p ctrl-q or ctrl-c.\r\n", termSafe(a.what()))
	}
	seen := &countingWriter{w: out}
	req := cluster.AttachRequest{Namespace: a.namespace, Pod: a.pod, Container: a.container, Stdout: seen, Stderr: seen, TTY: a.tty}
	if a.tty && t.sizes != nil {
		req.Sizes = redrawFirst(t.sizes)
	}
	if a.stdin {
		req.Stdin = keys
	} else {
		v.Go(func() { _, _ = io.Copy(io.Discard, keys) }) // ends with the terminal's input (withTerminal)
	}
	err := conn.Attach(ctx, req)
	return attachEnd{err: err, detached: detached.Load(), quiet: seen.n.Load() == 0 && (!a.stdin || keys.n.Load() == 0)}
}

// attachEnded says how the attachment to what ended: detached, ended, or why it failed.
func (v *Verbs) attachEnded(what string, end attachEnd) {
	switch {
	case end.detached:
		v.Message("detached from " + what + "; its process runs on")
	case end.err == nil:
		v.Message("attach to " + what + " ended")
	default:
		v.Errorf("attach to %s: %s", what, apierr.OneLine(end.err.Error()))
	}
}

// redrawFirst is sizes with its first size sent one cell larger first: the change makes the program on the
// container's terminal redraw its screen, which it drew for whoever attached before (kubectl attach's way).
// Its func is called from one goroutine at a time, as remotecommand's size queue is.
func redrawFirst(sizes func() *cluster.TerminalSize) func() *cluster.TerminalSize {
	started := false
	var then *cluster.TerminalSize
	return func() *cluster.TerminalSize {
		switch {
		case !started:
			started = true
			if then = sizes(); then != nil {
				return &cluster.TerminalSize{Width: then.Width + 1, Height: then.Height + 1}
			}
			return nil
		case then != nil:
			s := then
			then = nil
			return s
		}
		return sizes()
	}
}

// countingWriter counts what it writes to w.
type countingWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}
