package ui

import (
	"io"
	"os/exec"

	"github.com/rivo/tview"

	"kscope/discovery"
	"kscope/forwards"
	"kscope/ui/verbs"
	"kscope/watch"
)

// verbHost is the app as the object verbs' host (verbs.Host): the app's services (Navigator's), its
// dialogs, the terminal it suspends, the session's port-forwards and its tables. UI goroutine, but for what
// verbs.Host says any goroutine may call.
type verbHost struct{ *App }

// Pending implements verbs.Host.
func (h verbHost) Pending(delta int) { h.pending.Add(int64(delta)) }

// ReadOnly implements verbs.Host.
func (h verbHost) ReadOnly() bool { return h.opts.ReadOnly }

// Namespace implements verbs.Host.
func (h verbHost) Namespace() string {
	switch {
	case h.namespace != "":
		return h.namespace
	case h.cluster != nil && h.cluster.Info().Namespace != "":
		return h.cluster.Info().Namespace
	}
	return "default"
}

// ShowStatus implements verbs.Host.
func (h verbHost) ShowStatus() {
	if v := h.top(); v != nil {
		h.UpdateStatus(v)
	}
}

// ShowDialog implements verbs.Host.
func (h verbHost) ShowDialog(p, focus tview.Primitive) { h.showModal(p, focus) }

// CloseDialog implements verbs.Host.
func (h verbHost) CloseDialog() { h.closeModal() }

// Suspend implements verbs.Host.
func (h verbHost) Suspend(fn func()) bool { return h.suspend(fn) }

// Command implements verbs.Host.
func (h verbHost) Command(vars map[string]string, name string, args ...string) *exec.Cmd {
	return h.childCommand(vars, name, args...)
}

// Editor implements verbs.Host: Options.Edit.
func (h verbHost) Editor() verbs.EditFunc { return h.opts.Edit }

// Terminal implements verbs.Host.
func (h verbHost) Terminal() (io.Reader, io.Writer) { return h.shellIn, h.shellOut }

// Forwards implements verbs.Host.
func (h verbHost) Forwards() *forwards.List { return &h.forwards }

// ResourceForKind implements verbs.Host.
func (h verbHost) ResourceForKind(apiVersion, kind string) (discovery.Resource, error) {
	return h.resourceForKind(apiVersion, kind)
}

// OpenOwner implements verbs.Host.
func (h verbHost) OpenOwner(res discovery.Resource, ns, name string) {
	key := name
	spec := watch.Spec{GVR: res.GVR(), Namespaced: res.Namespaced}
	if res.Namespaced {
		key = ns + "/" + name
		spec.Namespace = ns
	}
	h.openSpec(res, spec, res.Name, key)
}

// newAccess returns the access answers of one view (a table, an object's view).
func (a *App) newAccess() *verbs.Access { return verbs.NewAccess(verbHost{a}) }

// The app is the verbs' host.
var _ verbs.Host = verbHost{}
