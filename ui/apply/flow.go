package apply

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/ui/verbs"
	"kscope/watch"
)

// Host is what applying asks of the app: the verbs' services (requests, dialogs, the editor, read-only
// mode, the view's namespace), the keys every screen offers, and the stack. UI goroutine, but for what
// verbs.Host says any goroutine may call.
type Host interface {
	verbs.Host
	// HelpBinding is `?`, QuitBinding `q`.
	HelpBinding() keymap.Binding
	QuitBinding() keymap.Binding
	// Open pushes s on top of the stack; CloseScreen closes s if it is on top.
	Open(s Screen)
	CloseScreen(s Screen)
}

// Screen has the methods of ui.Screen: a View is one.
type Screen interface {
	Crumb() string
	Primitive() tview.Primitive
	Activate()
	Close()
	Bindings() []keymap.Binding
	Status() string
	Escape() bool
	Typed(ev *tcell.EventKey) bool
	NamespaceChanged(ns string)
}

// Usage is the command's help, for its messages.
const Usage = "usage: :apply FILE|DIR (its *.yaml, *.yml, *.json; " + Limits + ") or :apply - (write them in $EDITOR; no piped input in a terminal UI)"

// newHeader is the comment above the empty document `:apply -` opens.
const newHeader = `# Write the objects to apply: YAML (--- between documents) or JSON. Lines beginning with '#' are
# ignored, and an empty file applies nothing. kscope dry-runs them on the server and shows the diff
# before anything is written. (:apply reads no piped input: kscope is a terminal UI.)
`

// copyHeader is the comment above the copy of an object the "new from" key opens.
const copyHeader = `# A new object from %s: change what the copy needs (its name, at least), save and quit.
# Lines beginning with '#' are ignored; an unchanged or empty file applies nothing. kscope dry-runs it
# on the server and shows the diff before anything is written.
`

// Command is `:apply ARGS`: a path (a file, or a folder's manifests, read off the UI goroutine within
// Limits; esc cancels) or "-" (the editor), dry-run, then the view of what it would do.
func Command(h Host, args []string) {
	if h.ReadOnly() {
		h.Errorf("read-only mode: refusing to apply")
		return
	}
	if len(args) != 1 {
		h.Errorf("%s", Usage)
		return
	}
	if args[0] == "-" {
		edited, path, ok := edit(h, []byte(newHeader))
		if ok {
			start(h, "the edited document", []Source{{Data: edited}}, path)
		}
		return
	}
	readThen(h, args[0], homePath(args[0]), func(srcs []Source) { start(h, args[0], srcs, "") })
}

// homePath is path with a leading "~/" (or "~" alone) standing for the user's home folder, as a shell reads
// it; any other path, or when the home folder is unknown, path as it is.
func homePath(path string) string {
	rest, ok := strings.CutPrefix(path, "~")
	if !ok || rest != "" && !strings.HasPrefix(rest, "/") {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return home + rest
}

// NewFrom is the "new from this object" key on row, an object of res: its YAML without what the server
// sets (status, uid, resourceVersion, managedFields, creationTimestamp, generation, selfLink,
// ownerReferences) in the editor; the saved text is applied as `:apply -` applies it.
func NewFrom(h Host, res discovery.Resource, row *watch.Row) {
	what := res.Name + " " + row.Key
	if h.ReadOnly() {
		h.Errorf("read-only mode: refusing to apply a new object from %s", what)
		return
	}
	request(h, verbs.RequestTimeout, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
		return c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			h.Errorf("new from %s: %s", what, err)
			return
		}
		text, err := yaml.Marshal(Template(obj).Object)
		if err != nil {
			h.Errorf("new from %s: %s", what, err)
			return
		}
		shown := append([]byte(fmt.Sprintf(copyHeader, what)), text...)
		edited, path, ok := edit(h, shown)
		switch {
		case !ok:
		case bytes.Equal(edited, shown):
			RemoveFile(path)
			h.Message("new from " + what + ": unchanged, nothing applied")
		default:
			start(h, "the new object", []Source{{Data: edited}}, path)
		}
	})
}

// Template is obj as a template of a new object: without status and the metadata the server sets or that
// names this object's place (uid, resourceVersion, managedFields, creationTimestamp, generation,
// selfLink, ownerReferences, and its deletion's).
func Template(obj *unstructured.Unstructured) *unstructured.Unstructured {
	o := obj.DeepCopy()
	unstructured.RemoveNestedField(o.Object, "status")
	for _, f := range []string{"uid", "resourceVersion", "managedFields", "creationTimestamp", "generation", "selfLink",
		"ownerReferences", "deletionTimestamp", "deletionGracePeriodSeconds"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	return o
}

// edit opens content in the user's editor (the TUI suspended) and returns the saved text and its file;
// false when there is nothing to apply (it said why).
func edit(h Host, content []byte) ([]byte, string, bool) {
	launch := h.Editor()
	if launch == nil {
		launch = verbs.ChildEditor(h)
	}
	var edited []byte
	var path string
	var err error
	if !h.Suspend(func() { edited, path, err = launch(content) }) {
		edited, path, err = launch(content) // no screen to suspend (tests)
	}
	if err != nil {
		RemoveFile(path)
		h.Errorf("apply: the editor failed: %s", err)
		return nil, "", false
	}
	if len(bytes.TrimSpace(StripComments(edited))) == 0 {
		RemoveFile(path)
		h.Message("apply: the saved file was empty, nothing applied")
		return nil, "", false
	}
	return edited, path, true
}

// StripComments drops the lines beginning with '#' (after blanks): the comments above a text kscope opens in
// the user's editor.
func StripComments(text []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(text, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}

// start checks srcs (named what), dry-runs them and opens the view of the plan; or says, in one line, why
// nothing is applied. kept is the editor's file of the text (""; none): removed once the text is read
// well, else named so that the user's text is not lost.
func start(h Host, what string, srcs []Source, kept string) {
	if len(srcs) == 1 && srcs[0].Name == what {
		srcs[0].Name = "" // named once
	}
	items, err := Items(srcs, h.Cluster().Catalog().Resources(), h.Namespace())
	if err != nil {
		h.Errorf("apply %s: nothing applied: %s%s", what, err, KeptIn(kept))
		return
	}
	RemoveFile(kept)
	h.Message(fmt.Sprintf("dry run of %d objects …", len(items)))
	request(h, planTimeout(len(items)), func(ctx context.Context, c cluster.Interface) ([]Result, error) {
		return Plan(ctx, c, items, false)
	}, func(rs []Result, err error) {
		if err != nil {
			h.Errorf("apply %s: nothing applied: %s", what, err)
			return
		}
		h.Open(newView(h, what, items, rs))
	})
}

// planTimeout bounds a dry run or an apply of n objects.
func planTimeout(n int) time.Duration { return verbs.RequestTimeout * time.Duration(max(n, 1)) }

// request runs work off the UI goroutine within timeout, against the cluster of the moment, then then on
// the UI goroutine with its outcome, unless a context switch has replaced that cluster meanwhile.
func request[T any](h Host, timeout time.Duration, work func(context.Context, cluster.Interface) (T, error), then func(T, error)) {
	conn := h.Cluster()
	h.Pending(1)
	h.Go(func() {
		ctx, cancel := context.WithTimeout(h.Context(), timeout)
		defer cancel()
		v, err := work(ctx, conn)
		h.Update(func() {
			defer h.Pending(-1)
			if h.Cluster() == conn {
				then(v, err)
			}
		})
	})
}

// KeptIn says, after an error, where the user's text stays: "; your text is in PATH" ("" for no file).
func KeptIn(path string) string {
	if path == "" {
		return ""
	}
	return "; your text is in " + path
}

// RemoveFile removes the editor's file at path, once its text is read well ("" for none); an error is not the
// user's to act on.
func RemoveFile(path string) {
	if path != "" {
		_ = os.Remove(path)
	}
}
