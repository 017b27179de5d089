package verbs

import (
	"io"
	"os/exec"

	"github.com/rivo/tview"
	"k8s.io/utils/clock"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/forwards"
	"kscope/ui/host"
	"kscope/ui/theme"
)

// Children is how a verb hands the terminal to a child of kscope (a shell, an editor, an attachment) and
// starts one. UI goroutine only, but for Command.
type Children interface {
	// Suspend gives the terminal to fn (a shell, an editor) and takes it back when fn returns; false when
	// there is no screen to suspend (tests).
	Suspend(fn func()) bool
	// Command is exec.Command with the environment of kscope's children (their kubeconfig) plus vars.
	Command(vars map[string]string, name string, args ...string) *exec.Cmd
	// Editor is the editor edit runs, nil for kubectl's ($KUBE_EDITOR, $EDITOR, vi) as a child of kscope.
	Editor() EditFunc
	// Terminal is the terminal a shell runs on instead of stdin and stdout, when set (tests); else nil, nil.
	Terminal() (io.Reader, io.Writer)
}

// Host is what the verbs ask of the app: its services (goroutines, the UI goroutine's queue, the prompt and
// status lines, the dialogs, the cluster of the moment), the terminal a shell or an editor takes over, and
// the few places a verb leads elsewhere (an owner's table). ui's App implements it (ui/verbhost.go). Every
// method runs on the UI goroutine, except Go, Update, Context, Clock and Pending, which any goroutine may call.
type Host interface {
	host.Core
	host.Prompts
	Children
	// Pending adds delta to the count of requests whose answer is not yet shown (tests wait for none).
	Pending(delta int)
	// Clock is the time the UI runs on.
	Clock() clock.WithTicker
	// Theme is the UI's colors; not changed after start.
	Theme() *theme.Theme
	// ReadOnly tells whether the user asked for no writes at all.
	ReadOnly() bool
	// Namespace is where a verb creates what it creates (a node's debug pod): the namespace shown, else (all
	// namespaces) the context's, else default.
	Namespace() string

	// ShowStatus shows the top screen's status line again (an access answer changes its note).
	ShowStatus()
	// ShowDialog shows p over the screen, focus focused, until CloseDialog (esc or a button of p calls it).
	ShowDialog(p, focus tview.Primitive)
	CloseDialog()

	// Forwards is the list of the session's port-forwards (:pf).
	Forwards() *forwards.List

	// ResourceForKind is the catalog's resource of a kind (an owner reference's).
	ResourceForKind(apiVersion, kind string) (discovery.Resource, error)
	// OpenOwner pushes res's table in ns (all namespaces for cluster-scoped) with name selected.
	OpenOwner(res discovery.Resource, ns, name string)
}

// Verbs are the object verbs of one app: its Host and what the verbs keep for the session (the drain
// dialog's values last used). UI goroutine only.
type Verbs struct {
	Host
	// drainOptions are the drain dialog's values last used (nil: none yet).
	drainOptions *cluster.DrainOptions
}

// New returns the verbs of the app h.
func New(h Host) *Verbs { return &Verbs{Host: h} }
