package verbs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"sigs.k8s.io/yaml"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/kube/readonly"
	"kscope/watch"
)

// editHeader is the comment above the object in the editor, kubectl edit's.
const editHeader = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`

// EditFunc opens content in the user's editor and returns the saved text and the temporary file's path
// (also on error, when there is one). It blocks until the editor exits; the TUI is suspended meanwhile.
type EditFunc func(content []byte) (edited []byte, path string, err error)

// startEdit reads the object (refused if it is no longer the object row shows), then edits it with the TUI
// suspended and reports the outcome.
func (v *Verbs) startEdit(res discovery.Resource, row *watch.Row) {
	what := res.Name + " " + row.Key
	if !needUID(v, "editing", what, row) {
		return
	}
	v.Message("reading " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
		return c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err != nil {
			v.Errorf("edit %s: %s", row.Name, err)
			return
		}
		if !sameObject(v, "editing", what, row, obj.GetUID()) {
			return
		}
		v.edit(v.Cluster(), res, obj) // the cluster it was read from (request checked)
	})
}

// edit runs the edit session of obj with the TUI suspended (on the UI goroutine: nothing else draws until
// the editor has exited), then says how it ended.
func (v *Verbs) edit(conn cluster.Interface, res discovery.Resource, obj *unstructured.Unstructured) {
	request := func(fn func(ctx context.Context) error) error {
		ctx, cancel := context.WithTimeout(v.Context(), RequestTimeout)
		defer cancel()
		return fn(ctx)
	}
	s := &editSession{
		original: obj,
		launch:   v.editFunc(),
		update: func(o *unstructured.Unstructured) (err error) {
			return request(func(ctx context.Context) error { _, err := conn.Update(ctx, res.GVR(), o); return err })
		},
		latest: func() (latest *unstructured.Unstructured, err error) {
			err = request(func(ctx context.Context) error {
				latest, err = conn.Get(ctx, res.GVR(), obj.GetNamespace(), obj.GetName())
				return err
			})
			return latest, err
		},
	}
	var outcome string
	var err error
	if !v.Suspend(func() { outcome, err = s.run() }) {
		outcome, err = s.run() // no screen to suspend (tests)
	}
	if err != nil {
		v.Errorf("edit %s %s: %s", res.Name, obj.GetName(), err)
		return
	}
	v.Message(outcome)
}

// editSession is one kubectl-edit of an object: the object without managedFields and status goes to the
// editor; an unchanged file sends nothing; a file that does not parse, or a change the server rejects,
// reopens the editor with the error at the top and the user's text kept; the update carries the
// resourceVersion of the text (the one read, unless the user changed it), so a concurrent change is a
// Conflict shown to the user, never overwritten unseen.
type editSession struct {
	original *unstructured.Unstructured
	launch   EditFunc
	update   func(*unstructured.Unstructured) error
	latest   func() (*unstructured.Unstructured, error)
}

// run edits until the update lands or the user gives up, and returns what to tell the user. Temporary
// files are removed, except the one with the user's text when the edit failed.
func (s *editSession) run() (string, error) {
	shown, err := editableYAML(s.original)
	if err != nil {
		return "", err
	}
	body, reasons := shown, []string(nil)
	var previous []byte // the last text given back, when it failed
	for {
		edited, path, err := s.launch(append([]byte(editHeader+commentReasons(reasons)), body...))
		if err != nil {
			return "", fmt.Errorf("the editor failed: %s%s", apierr.OneLine(err.Error()), keptIn(path, previous != nil))
		}
		stripped := cmdutil.StripComments(edited)
		switch {
		case previous != nil && bytes.Equal(stripped, cmdutil.StripComments(previous)):
			return "", fmt.Errorf("edit cancelled, no valid changes were saved (%s)%s", apierr.OneLine(reasons[0]), keptIn(path, true))
		case bytes.Equal(stripped, cmdutil.StripComments(shown)):
			removeFile(path)
			return "edit cancelled, no changes made", nil
		case len(bytes.TrimSpace(cmdutil.ManualStrip(edited))) == 0:
			removeFile(path)
			return "edit cancelled, saved file was empty", nil
		}
		reason, final := s.save(cmdutil.ManualStrip(edited))
		if final != nil {
			return "", fmt.Errorf("%w%s", final, keptIn(path, true))
		}
		if reason == "" {
			removeFile(path)
			return fmt.Sprintf("edited %s %s", strings.ToLower(s.original.GetKind()), s.original.GetName()), nil
		}
		removeFile(path)
		body, reasons, previous = cmdutil.ManualStrip(edited), []string{reason}, edited
	}
}

// save parses text and sends the update. It returns "" when it landed, else why not (for the header), or
// final: an error that another try cannot help (read-only mode).
func (s *editSession) save(text []byte) (reason string, final error) {
	obj, err := parseEdited(text, s.original)
	if err != nil {
		return err.Error(), nil
	}
	err = s.update(obj)
	switch {
	case err == nil:
		return "", nil
	case errors.As(err, new(*readonly.RefusedError)):
		return "", err
	case apierrors.IsConflict(err):
		now := "?"
		if latest, err := s.latest(); err == nil {
			now = latest.GetResourceVersion()
		}
		return fmt.Sprintf("The object was changed since it was read (your text has resourceVersion %s, the server %s): "+
			"nothing was saved. To save your text over that change, set metadata.resourceVersion to %s and save; "+
			"to cancel, quit without saving.\n%s", obj.GetResourceVersion(), now, now, apierr.OneLine(err.Error())), nil
	default:
		return "The server rejected the change: " + apierr.OneLine(err.Error()), nil
	}
}

// editableYAML is obj as the editor shows it: managedFields and status left out.
func editableYAML(obj *unstructured.Unstructured) ([]byte, error) {
	o := obj.DeepCopy()
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(o.Object, "status")
	out, err := yaml.Marshal(o.Object)
	if err != nil {
		return nil, fmt.Errorf("yaml of %s: %w", obj.GetName(), err)
	}
	return out, nil
}

// parseEdited reads the edited text as the object to send: the same kind, name and namespace as original;
// original's status kept (the editor did not show it); original's resourceVersion when the text has none.
func parseEdited(text []byte, original *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	obj := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(text, &obj.Object); err != nil {
		return nil, fmt.Errorf("The edited file had a syntax error: %s", apierr.OneLine(err.Error()))
	}
	if obj.Object == nil {
		return nil, errors.New("The edited file had a syntax error: not an object")
	}
	for _, f := range []struct{ field, was, now string }{
		{"apiVersion", original.GetAPIVersion(), obj.GetAPIVersion()},
		{"kind", original.GetKind(), obj.GetKind()},
		{"metadata.name", original.GetName(), obj.GetName()},
		{"metadata.namespace", original.GetNamespace(), obj.GetNamespace()},
	} {
		if f.was != f.now {
			return nil, fmt.Errorf("%s cannot change: it was %q, the edited file has %q", f.field, f.was, f.now)
		}
	}
	if status, ok := original.Object["status"]; ok {
		obj.Object["status"] = status
	}
	if obj.GetResourceVersion() == "" {
		obj.SetResourceVersion(original.GetResourceVersion())
	}
	return obj, nil
}

// commentReasons writes reasons as header comments, as kubectl edit does.
func commentReasons(reasons []string) string {
	var b strings.Builder
	for _, r := range reasons {
		b.WriteString("# " + strings.ReplaceAll(r, "\n", "\n# ") + "\n#\n")
	}
	return b.String()
}

// keptIn tells where the user's text stays, when it is worth keeping.
func keptIn(path string, keep bool) string {
	if !keep || path == "" {
		removeFile(path)
		return ""
	}
	return "; your text is in " + path
}

func removeFile(path string) {
	if path != "" {
		_ = os.Remove(path)
	}
}
