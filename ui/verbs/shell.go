package verbs

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/exec"

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
	v.inContainer("shell", "shell in which container of ", row, container, func(pod *corev1.Pod, container string) {
		v.shell(v.Cluster(), pod, container)
	})
}

// inContainer reads the pod of row, which must be running, then calls run with it and container ("": the
// only one of its containers, else the one the user picks, asked with question and the pod's name, the
// default container preselected); verb names the action in the errors. UI goroutine.
func (v *Verbs) inContainer(verb, question string, row *watch.Row, container string, run func(pod *corev1.Pod, container string)) {
	v.Message("reading pod " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (*corev1.Pod, error) {
		return c.PodFor(ctx, podsGVR, row.Namespace, row.Name)
	}, func(pod *corev1.Pod, err error) {
		if err != nil {
			v.Errorf("%s %s: %s", verb, row.Key, apierr.OneLine(err.Error()))
			return
		}
		if pod.Status.Phase != corev1.PodRunning {
			v.Errorf("%s %s: the pod is %s, not running", verb, row.Key, phaseOf(pod))
			return
		}
		v.Message("")
		names := make([]string, len(pod.Spec.Containers))
		for i, c := range pod.Spec.Containers {
			names[i] = c.Name
		}
		switch {
		case container != "":
			run(pod, container)
		case len(names) == 0:
			v.Errorf("%s %s: the pod has no containers", verb, row.Key)
		case len(names) == 1:
			run(pod, names[0])
		default:
			v.Choose(question+pod.Name, names, logs.DefaultContainer(names, pod.Annotations, 0), func(i int) {
				run(pod, names[i])
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
	var err error
	if !v.Suspend(func() {
		err = v.withTerminal(func(t streamTerminal) error { return conn.Exec(v.Context(), shellRequest(t, pod, container)) })
	}) {
		v.Errorf("shell %s: no terminal to give the shell", what)
		return
	}
	v.shellEnded(what, err, "")
}

// shellRequest is the exec of the shell in container of pod, on t.
func shellRequest(t streamTerminal, pod *corev1.Pod, container string) cluster.ExecRequest {
	return cluster.ExecRequest{Namespace: pod.Namespace, Pod: pod.Name, Container: container, Command: ShellCommand(),
		Stdin: t.in, Stdout: t.out, TTY: true, Sizes: t.sizes}
}

// shellEnded says how the shell in what ended, after note (what led to the shell, "" for none): a plain
// exit, an exit code, or why it could not run.
func (v *Verbs) shellEnded(what string, err error, note string) {
	var code exec.CodeExitError
	switch {
	case err == nil:
		v.Message(note + "shell in " + what + " ended")
	case errors.As(err, &code) && (code.Code == 126 || code.Code == 127):
		v.Errorf("%sshell in %s ended with exit code %d: the container may have no shell (sh)", note, what, code.Code)
	case errors.As(err, &code):
		v.Message(fmt.Sprintf("%sshell in %s ended with exit code %d", note, what, code.Code))
	default:
		v.Errorf("%sshell in %s: %s", note, what, apierr.OneLine(err.Error()))
	}
}
