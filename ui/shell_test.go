package ui

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"
	"k8s.io/client-go/util/exec"

	"kscope/logs"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
)

// syncBuffer is a shell's terminal output in a test (written by the fake's Exec, read by the test).
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startShellTest opens pods with the selection on web-7d9f-abcde, the shell's terminal a buffer.
func startShellTest(t *testing.T, opts func(*Options)) (*harness, *syncBuffer) {
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		if opts != nil {
			opts(o)
		}
	})
	out := &syncBuffer{}
	h.ui(func() { h.app.shellIn, h.app.shellOut = strings.NewReader(""), out })
	h.typeText("/abcde\n")
	h.eventually("pods(shop)[1] </abcde>")
	return h, out
}

// withContainers gives the fixture pod containers app and sidecar, sidecar the default-container.
func withContainers(o *Options) {
	pod := o.Cluster.(*fakeCluster).objects["pods/shop/web-7d9f-abcde"]
	pod.Object["spec"] = map[string]any{"containers": []any{
		map[string]any{"name": "app", "image": "nginx:1.27"},
		map[string]any{"name": "sidecar", "image": "busybox:1.36"},
	}}
	pod.SetAnnotations(map[string]string{logs.DefaultContainerAnnotation: "sidecar"})
}

// bindingNamed returns the top view's binding called name.
func bindingNamed(h *harness, name string) (keymap.Binding, bool) {
	var keys []keymap.Binding
	h.quietly(func() { keys = h.app.top().Bindings() })
	i := slices.IndexFunc(keys, func(b keymap.Binding) bool { return b.Name == name })
	if i < 0 {
		return keymap.Binding{}, false
	}
	return keys[i], true
}

// TestShellKeyIsScaleOffPods: `s` is shell on pods, scale on deployments; shift-f is port-forward on pods,
// services and deployments and absent elsewhere.
func TestShellKeyIsScaleOffPods(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	if b, ok := bindingNamed(h, "shell"); !ok || b.Rune != 's' {
		t.Errorf("pods: shell is %+v (found %v), want s", b, ok)
	}
	if _, ok := bindingNamed(h, "scale"); ok {
		t.Error("pods offer scale")
	}
	if b, ok := bindingNamed(h, "port-forward"); !ok || b.Label != "shift-f" {
		t.Errorf("pods: port-forward is %+v (found %v), want shift-f", b, ok)
	}
	h.typeText(":deploy\n")
	h.eventually("deployments(shop)")
	if b, ok := bindingNamed(h, "scale"); !ok || b.Rune != 's' {
		t.Errorf("deployments: scale is %+v (found %v), want s", b, ok)
	}
	if _, ok := bindingNamed(h, "shell"); ok {
		t.Error("deployments offer a shell")
	}
	if _, ok := bindingNamed(h, "port-forward"); !ok {
		t.Error("deployments offer no port-forward")
	}
	h.typeText(":rs\n")
	h.eventually("replicasets(shop)")
	if _, ok := bindingNamed(h, "port-forward"); ok {
		t.Error("replicasets offer a port-forward")
	}
	h.press(tcell.KeyRune, 'y')
	h.eventually("replicasets shop/web-7d9f")
	if b, ok := bindingNamed(h, "scale"); !ok || b.Rune != 's' {
		t.Errorf("replicaset YAML: scale is %+v (found %v)", b, ok)
	}
}

// TestShellPicksContainerAndRestoresScreen: a pod with two containers asks which one, the default-container
// annotation preselected; the shell runs bash-else-sh in it on a terminal, and the screen afterwards is the
// one before with the outcome on the prompt line.
func TestShellPicksContainerAndRestoresScreen(t *testing.T) {
	h, out := startShellTest(t, withContainers)
	h.cluster.streams.execOutput = "kscope-shell-output\r\n"
	before := h.text()
	h.press(tcell.KeyRune, 's')
	h.eventually("shell in which container of web-7d9f-abcde")
	h.contains("sidecar")
	h.press(tcell.KeyEnter, 0) // the preselected sidecar
	h.eventually("shell in shop/web-7d9f-abcde (sidecar) ended")
	want := "exec shop/web-7d9f-abcde sidecar " + strings.Join(verbs.ShellCommand(), " ") + " tty=true"
	if got := writes(h); !slices.Equal(got, []string{want}) {
		t.Errorf("calls %q, want %q", got, want)
	}
	if out.String() != "kscope-shell-output\r\n" {
		t.Errorf("the shell's terminal got %q", out.String())
	}
	after := h.text()
	strip := func(s string) string { // all but the prompt line
		lines := strings.Split(s, "\n")
		return strings.Join(lines[:len(lines)-3], "\n") + lines[len(lines)-2]
	}
	if strip(after) != strip(before) {
		t.Errorf("the screen after the shell differs:\n--- before\n%s--- after\n%s", before, after)
	}

	h.press(tcell.KeyRune, 's')
	h.eventually("shell in which container")
	h.press(tcell.KeyUp, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("shell in shop/web-7d9f-abcde (app) ended")

	h.press(tcell.KeyRune, 's')
	h.eventually("shell in which container")
	h.press(tcell.KeyEscape, 0)
	h.until("the dialog closed", func() bool { return h.app.modal == nil })
	if n := len(writes(h)); n != 2 {
		t.Errorf("%d execs, want 2 (esc runs none)", n)
	}
}

// TestShellOneContainerRunsAtOnce: no picker for a single container.
func TestShellOneContainerRunsAtOnce(t *testing.T) {
	h, _ := startShellTest(t, nil)
	h.press(tcell.KeyRune, 's')
	h.eventually("shell in shop/web-7d9f-abcde (web) ended")
	if got := writes(h); len(got) != 1 || !strings.HasPrefix(got[0], "exec shop/web-7d9f-abcde web sh -c") {
		t.Errorf("calls %q", got)
	}
}

// TestShellFailuresAreOneLine: a pod not running is refused before any exec; a container without a shell, an
// exec the server refuses and a non-zero exit are each one line.
func TestShellFailuresAreOneLine(t *testing.T) {
	h, _ := startShellTest(t, func(o *Options) {
		c := o.Cluster.(*fakeCluster)
		pending := podObject()
		pending.SetName("api-5c4b-zzzzz")
		pending.Object["status"] = map[string]any{"phase": "Pending"}
		c.objects["pods/shop/api-5c4b-zzzzz"] = pending
	})
	h.typeText("/api\n")
	h.eventually("</api>")
	h.press(tcell.KeyRune, 's')
	h.eventually("shell shop/api-5c4b-zzzzz: the pod is Pending, not running")
	if w := writes(h); len(w) != 0 {
		t.Errorf("a pending pod was exec'd: %q", w)
	}

	h.typeText("/abcde\n")
	h.eventually("</abcde>")
	for _, tt := range []struct {
		err  error
		want string
	}{
		{exec.CodeExitError{Err: errors.New("command terminated with exit code 127"), Code: 127},
			"shell in shop/web-7d9f-abcde (web) ended with exit code 127: the container may have no shell (sh)"},
		{exec.CodeExitError{Err: errors.New("command terminated with exit code 3"), Code: 3},
			"shell in shop/web-7d9f-abcde (web) ended with exit code 3"},
		{errors.New("exec shop/web-7d9f-abcde: container not found (\"web\")\ngoroutine 1 [running]:"),
			`shell in shop/web-7d9f-abcde (web): exec shop/web-7d9f-abcde: container not found ("web") goroutine`},
	} {
		h.cluster.mu.Lock()
		h.cluster.streams.execErr = tt.err
		h.cluster.mu.Unlock()
		h.press(tcell.KeyRune, 's')
		h.eventually(tt.want)
	}
}
