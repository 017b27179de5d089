package verbs

import (
	"context"
	"errors"
	"fmt"
	"os"

	xterm "golang.org/x/term"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/exec"
	"k8s.io/kubectl/pkg/util/term"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/logs"
	"kscope/ui/keymap"
	"kscope/watch"
)

// ShellCommand is the command a shell runs in the container: bash when the container has it, else sh (as
// k9s does).
func ShellCommand() []string {
	return []string{"sh", "-c", "command -v bash >/dev/null && exec bash || exec sh"}
}

var shellVerb = verb{key: keymap.Keys.Object.Shell,
	need: accessNeed{verb: "create", subresource: "exec", resource: podsGVR}, applies: shellable, start: (*Verbs).startShell}

var podsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// isPods tells whether res is core/v1 pods.
func isPods(res discovery.Resource) bool { return res.GVR() == podsGVR }

// shellable: pods only.
func shellable(res discovery.Resource) error {
	if !isPods(res) {
		return fmt.Errorf("%s has no shell: only pods do", res.FullName())
	}
	return nil
}

// startShell reads the pod, asks for the container when it has several, then runs the shell.
func (v *Verbs) startShell(_ discovery.Resource, row *watch.Row) { v.StartShellIn(row, "") }

// StartShellIn reads the pod of row, then runs the shell in container ("": the only one, else the one the
// user picks). UI goroutine.
func (v *Verbs) StartShellIn(row *watch.Row, container string) {
	v.Message("reading pod " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (*corev1.Pod, error) {
		return c.PodFor(ctx, podsGVR, row.Namespace, row.Name)
	}, func(pod *corev1.Pod, err error) {
		if err != nil {
			v.Errorf("shell %s: %s", row.Key, apierr.OneLine(err.Error()))
			return
		}
		if pod.Status.Phase != corev1.PodRunning {
			v.Errorf("shell %s: the pod is %s, not running", row.Key, phaseOf(pod))
			return
		}
		v.Message("")
		names := make([]string, len(pod.Spec.Containers))
		for i, c := range pod.Spec.Containers {
			names[i] = c.Name
		}
		preselect := logs.DefaultContainer(names, pod.Annotations, 0)
		switch {
		case container != "":
			v.shell(v.Cluster(), pod, container)
		case len(names) == 0:
			v.Errorf("shell %s: the pod has no containers", row.Key)
		case len(names) == 1:
			v.shell(v.Cluster(), pod, names[0])
		default:
			v.Choose("shell in which container of "+pod.Name, names, preselect, func(i int) {
				v.shell(v.Cluster(), pod, names[i])
			})
		}
	})
}

func phaseOf(pod *corev1.Pod) string {
	if pod.Status.Phase == "" {
		return "Unknown"
	}
	return string(pod.Status.Phase)
}

// shell runs the interactive shell in container of pod with the TUI suspended (on the UI goroutine: nothing
// else draws until the shell has exited) and the terminal in raw mode, its size changes forwarded; then it
// says how the shell ended.
func (v *Verbs) shell(conn cluster.Interface, pod *corev1.Pod, container string) {
	what := fmt.Sprintf("%s/%s (%s)", pod.Namespace, pod.Name, container)
	run := func() error {
		tty := term.TTY{In: os.Stdin, Out: os.Stdout} // for its size; raw mode is set below
		in, out := v.Terminal()
		ownTerminal := in == nil || out == nil
		if ownTerminal {
			var stop func()
			in, stop = shellInput()
			defer stop() // after the shell: no read of stdin outlives it
			out = os.Stdout
		} else {
			tty.In, tty.Out = in, out
		}
		req := cluster.ExecRequest{Namespace: pod.Namespace, Pod: pod.Name, Container: container, Command: ShellCommand(),
			Stdin: in, Stdout: out, TTY: true}
		if sizes := tty.MonitorSize(tty.GetSize()); sizes != nil {
			req.Sizes = func() *cluster.TerminalSize {
				s := sizes.Next()
				if s == nil {
					return nil
				}
				return &cluster.TerminalSize{Width: s.Width, Height: s.Height}
			}
		}
		// Raw mode set and restored here, not with tty.Safe: kubectl's interrupt handler there would end the
		// process (os.Exit) on SIGTERM or SIGHUP with the UI never finalised; kscope's own signal path
		// (Signal) cancels v.Context() instead, which ends the stream, and the UI stops after it.
		if ownTerminal && tty.IsTerminalIn() {
			fd := int(os.Stdin.Fd())
			if state, err := xterm.MakeRaw(fd); err == nil {
				defer func() { _ = xterm.Restore(fd, state) }()
			}
		}
		return conn.Exec(v.Context(), req)
	}
	var err error
	if !v.Suspend(func() { err = run() }) {
		v.Errorf("shell %s: no terminal to give the shell", what)
		return
	}
	v.shellEnded(what, err)
}

// shellEnded says how the shell in what ended: a plain exit, an exit code, or why it could not run.
func (v *Verbs) shellEnded(what string, err error) {
	var code exec.CodeExitError
	switch {
	case err == nil:
		v.Message("shell in " + what + " ended")
	case errors.As(err, &code) && (code.Code == 126 || code.Code == 127):
		v.Errorf("shell in %s ended with exit code %d: the container may have no shell (sh)", what, code.Code)
	case errors.As(err, &code):
		v.Message(fmt.Sprintf("shell in %s ended with exit code %d", what, code.Code))
	default:
		v.Errorf("shell in %s: %s", what, apierr.OneLine(err.Error()))
	}
}
