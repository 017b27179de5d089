package apply

import (
	"context"
	"errors"
	"fmt"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/keymap"
)

// readScreen is the apply screen while `:apply PATH` reads its files off the UI goroutine: it names the path
// and the limits of the read. Closing it (esc goes back, a context switch, quitting) cancels the read, and
// nothing is applied. UI goroutine only.
type readScreen struct {
	h      Host
	what   string
	cancel context.CancelFunc
	// done is set once the read has ended: read, refused or cancelled.
	done bool
	text *tview.TextView
}

// readThen reads path (named what in the messages) as ReadPath does, on a goroutine of the host's, under a
// context that closing the reading screen (shown meanwhile) or quitting cancels; then, on the UI goroutine,
// calls then with what it read, or says in one line why nothing is applied. A read whose cluster a
// context switch replaced meanwhile applies nothing either. UI goroutine.
func readThen(h Host, what, path string, then func([]Source)) {
	ctx, cancel := context.WithCancel(h.Context())
	r := &readScreen{h: h, what: what, cancel: cancel}
	r.text = tview.NewTextView().SetDynamicColors(true)
	r.text.SetBorder(true).SetTitle(" [aqua::b]apply[white] " + tview.Escape(what) + " ")
	r.render()
	conn := h.Cluster()
	h.Open(r)
	h.Message("reading " + what + " …")
	h.Pending(1)
	h.Go(func() {
		srcs, err := ReadPath(ctx, path)
		h.Update(func() {
			defer h.Pending(-1)
			if r.done { // closed: Close said so
				return
			}
			r.finish()
			switch {
			case ctx.Err() != nil && errors.Is(err, ctx.Err()):
				h.Message("apply " + what + ": read cancelled, nothing applied")
			case err != nil:
				h.Errorf("apply %s: %s", what, err)
			case h.Cluster() != conn:
				h.Message("apply " + what + ": the context changed during the read, nothing applied")
			default:
				then(srcs)
			}
		})
	})
}

// finish ends the read (its context released) and closes the screen if it is on top; below another, it
// stays, saying that the read has ended, until the user goes back from it.
func (r *readScreen) finish() {
	r.done = true
	r.cancel()
	r.render()
	r.h.CloseScreen(r)
}

// render writes what the screen reads and the limits of the read.
func (r *readScreen) render() {
	state := "reading " + tview.Escape(r.what) + " …\n\nesc cancels the read: nothing is applied."
	if r.done {
		state = "the read of " + tview.Escape(r.what) + " has ended.\n\nesc goes back."
	}
	r.text.SetText(fmt.Sprintf("%s\n\n[gray]:apply reads %s.[-]\n", state, Limits))
}

// Crumb names the screen.
func (r *readScreen) Crumb() string { return "apply" }

// Primitive is the text.
func (r *readScreen) Primitive() tview.Primitive { return r.text }

// Activate shows the state of the read again.
func (r *readScreen) Activate() { r.render() }

// Close cancels the read in progress, if any, and says so.
func (r *readScreen) Close() {
	if r.done {
		return
	}
	r.done = true
	r.cancel()
	r.h.Message("apply " + r.what + ": read cancelled, nothing applied")
}

// Escape goes back (which cancels the read).
func (r *readScreen) Escape() bool { return false }

// Typed takes no key.
func (r *readScreen) Typed(*tcell.EventKey) bool { return false }

// NamespaceChanged does not concern the read.
func (r *readScreen) NamespaceChanged(string) {}

// Bindings: help and quit; esc (the app's) cancels.
func (r *readScreen) Bindings() []keymap.Binding {
	return []keymap.Binding{r.h.HelpBinding(), r.h.QuitBinding()}
}

// Status names the read in progress and how to cancel it.
func (r *readScreen) Status() string {
	if r.done {
		return "read ended  (esc: back)"
	}
	return "reading " + tview.Escape(r.what) + " …  (esc: cancel)"
}
