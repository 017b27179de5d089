package ui

import (
	"fmt"
	"sync"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/ui/host"
	"kscope/ui/prompt"
	"kscope/ui/theme"
)

// maxNotices bounds the notices waiting to be shown.
const maxNotices = 100

// prompts is the session's prompt line and dialogs, a service of its own: the one-line messages and errors
// (Message, Errorf), the questions (Ask on the prompt line, Choose and confirm in a dialog over the views)
// and the notices written to kscope's standard error while the UI owns the screen (Notice). One per session,
// shared by its Apps (each App's Confirm names its cluster's context first). UI goroutine only, but for
// Notice, which any goroutine may call.
type prompts struct {
	tv   *tview.Application
	bar  *prompt.Bar
	body *tview.Pages // the views' pages, which a dialog is shown over
	// modal is the dialog shown, nil when none; colors are the dialogs' (the skin's, else kscope's).
	modal  tview.Primitive
	colors *theme.Theme
	// refocus gives the focus back to the view on top once a dialog closes.
	refocus func()

	noticeMu sync.Mutex
	notices  []string      // Notice lines not shown yet
	noticed  chan struct{} // capacity 1: notices are waiting
}

var _ interface {
	host.Prompts
	Message(text string)
	Errorf(format string, args ...any)
} = (*App)(nil)

// newPrompts is the prompts of the application tv over the views' pages body, the prompt line bar;
// refocus gives the focus back to the view on top.
func newPrompts(tv *tview.Application, body *tview.Pages, bar *prompt.Bar, colors *theme.Theme, refocus func()) *prompts {
	return &prompts{tv: tv, body: body, bar: bar, colors: colors, refocus: refocus, noticed: make(chan struct{}, 1)}
}

// Message implements Navigator: a one-line note on the prompt line.
func (p *prompts) Message(text string) { p.bar.Message(text, false) }

// Errorf implements Navigator: a one-line error on the prompt line (red).
func (p *prompts) Errorf(format string, args ...any) {
	p.bar.Message(fmt.Sprintf(format, args...), true)
}

// Ask implements Navigator: the command bar takes the line.
func (p *prompts) Ask(label, initial string, done func(text string)) {
	p.bar.Open(label, initial, done, nil)
}

// open tells whether the prompt line or a dialog takes the keys.
func (p *prompts) open() bool { return p.bar.Active() || p.modal != nil }

// confirm shows question with Cancel (focused) and the action's button; do runs if the user chooses it.
func (p *prompts) confirm(question, action string, do func()) {
	modal := tview.NewModal().SetText(tview.Escape(question)).AddButtons([]string{"Cancel", action})
	p.colors.PaintDialog(modal)
	modal.SetDoneFunc(func(_ int, label string) {
		p.closeModal()
		if label == action {
			do()
		}
	})
	p.showModal(modal, modal)
}

// Choose implements Navigator: it shows a list of items in a dialog with title, selected preselected; Enter
// calls pick with the chosen index, esc closes it without a choice. UI goroutine only.
func (p *prompts) Choose(title string, items []string, selected int, pick func(int)) {
	list := tview.NewList().ShowSecondaryText(false).SetHighlightFullLine(true)
	width := len(title) + 4
	for _, item := range items {
		list.AddItem(item, "", 0, nil)
		width = max(width, len(item)+6)
	}
	list.SetCurrentItem(selected)
	list.SetBorder(true).SetTitle(" " + tview.Escape(title) + " ")
	list.SetSelectedFunc(func(i int, _, _ string, _ rune) {
		p.closeModal()
		pick(i)
	})
	list.SetDoneFunc(p.closeModal)
	list.SetInputCapture(func(ev *tcell.EventKey) *tcell.EventKey {
		switch ev.Rune() { // vi keys, as in the tables
		case 'j':
			return tcell.NewEventKey(tcell.KeyDown, 0, tcell.ModNone)
		case 'k':
			return tcell.NewEventKey(tcell.KeyUp, 0, tcell.ModNone)
		}
		return ev
	})
	dialog := tview.NewGrid().SetColumns(0, width, 0).SetRows(0, len(items)+2, 0).AddItem(list, 1, 1, 1, 1, 0, 0, true)
	p.showModal(dialog, list)
}

// showModal shows d over the views, focus focused, until closeModal.
func (p *prompts) showModal(d, focus tview.Primitive) {
	p.modal = d
	p.body.AddPage("modal", d, true, true)
	p.tv.SetFocus(focus)
}

// closeModal closes the dialog shown and gives the focus back to the view on top.
func (p *prompts) closeModal() {
	p.body.RemovePage("modal")
	p.modal = nil
	p.refocus()
}

// Notice shows line on the prompt line: what a credential plugin or the server's warnings wrote to kscope's
// standard error while the UI owns the screen. Safe to call from any goroutine, before and during Run; it
// never blocks. Lines wait in order (the newest 100) until the UI goroutine shows them; each replaces the
// previous one, as any message does.
func (p *prompts) Notice(line string) {
	p.noticeMu.Lock()
	if len(p.notices) == maxNotices {
		p.notices = p.notices[1:]
	}
	p.notices = append(p.notices, line)
	p.noticeMu.Unlock()
	select {
	case p.noticed <- struct{}{}:
	default:
	}
}

// showNotices forwards notices to the UI goroutine until done is closed. It runs on its own goroutine.
func (p *prompts) showNotices(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-p.noticed:
		}
		p.tv.QueueUpdateDraw(p.flushNotices)
	}
}

// flushNotices shows the latest pending notice on the prompt line, if any. UI goroutine only. A line that
// must come after the notices so far (a plugin's end, which names the writes refused during its run) calls it
// first: a notice still on its way would otherwise replace that line.
func (p *prompts) flushNotices() {
	p.noticeMu.Lock()
	lines := p.notices
	p.notices = nil
	p.noticeMu.Unlock()
	if len(lines) > 0 {
		p.Message(lines[len(lines)-1])
	}
}
