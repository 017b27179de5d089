package prompt

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// Bar is the prompt line: it shows a one-line message, or takes a line of input after a label (`:` for a
// command, `/` for a filter or a search) with Tab completion where its opener gives a completer. The input
// field inside it gets the keys while it is open (tview routes them to the focused primitive). A Bar is not
// safe for concurrent use: every method, and every hook it calls, runs on the UI goroutine.
type Bar struct {
	line  *tview.Pages
	text  *tview.TextView
	input *tview.InputField
	hooks Hooks

	active   bool
	onDone   func(text string)
	complete Completer
}

// Completer answers Tab on the text typed so far: the text to put in its place and the candidates it
// matched (more than one are shown through Hooks.Candidates). A Bar calls it on the UI goroutine.
type Completer func(text string) (string, []string)

// Hooks are what a Bar asks of its owner, called on the UI goroutine. A nil hook does nothing.
type Hooks struct {
	// Focus gives p the keyboard focus (tview's Application.SetFocus); Open focuses the input field with it.
	Focus func(p tview.Primitive)
	// Closed runs each time the bar stops taking input (Enter, Esc or Close), before Enter's text is
	// delivered: the owner gives the focus back to its view.
	Closed func()
	// Candidates shows the candidates of a Tab that matched more than one.
	Candidates func(candidates []string)
}

// New returns a closed Bar showing no message.
func New(hooks Hooks) *Bar {
	b := &Bar{line: tview.NewPages(), text: tview.NewTextView().SetDynamicColors(true).SetWrap(false), hooks: hooks}
	b.input = tview.NewInputField().
		SetFieldBackgroundColor(tcell.ColorDefault).
		SetFieldTextColor(tcell.ColorWhite).
		SetLabelColor(tcell.ColorAqua)
	b.input.SetDoneFunc(b.done)
	b.line.AddPage("message", b.text, true, true)
	b.line.AddPage("input", b.input, true, false)
	return b
}

// SetColors colors the bar: the label (":", "/"), the typed text, and the background (tcell.ColorDefault:
// the terminal's).
func (b *Bar) SetColors(label, text, background tcell.Color) {
	b.input.SetLabelColor(label).SetFieldTextColor(text).SetFieldBackgroundColor(background)
	b.input.SetBackgroundColor(background)
	b.text.SetBackgroundColor(background)
}

// Primitive is the line to lay out (one row high).
func (b *Bar) Primitive() tview.Primitive { return b.line }

// Active tells whether the bar is taking input.
func (b *Bar) Active() bool { return b.active }

// Open starts taking input after label, beginning with initial, and focuses the input field. done
// receives the text on Enter, after the bar has closed (done may open it again); complete, if not nil,
// answers Tab. Opening an open bar starts it afresh, without closing it.
func (b *Bar) Open(label, initial string, done func(text string), complete Completer) {
	b.active, b.onDone, b.complete = true, done, complete
	b.input.SetLabel(label).SetText(initial)
	b.line.SwitchToPage("input")
	if b.hooks.Focus != nil {
		b.hooks.Focus(b.input)
	}
}

// Close stops taking input (the text typed is dropped) and shows the message line again; it runs
// Hooks.Closed.
func (b *Bar) Close() {
	b.active = false
	b.line.SwitchToPage("message")
	if b.hooks.Closed != nil {
		b.hooks.Closed()
	}
}

// Text returns the text in the input field (what Enter would deliver).
func (b *Bar) Text() string { return b.input.GetText() }

// done handles the keys the input field finishes on: Enter delivers the text, Esc drops it, Tab completes.
func (b *Bar) done(k tcell.Key) {
	switch k {
	case tcell.KeyEnter:
		text, fn := b.input.GetText(), b.onDone
		b.Close()
		if fn != nil {
			fn(text)
		}
	case tcell.KeyEscape:
		b.Close()
	case tcell.KeyTab:
		if b.complete == nil {
			return
		}
		text, candidates := b.complete(b.input.GetText())
		b.input.SetText(text)
		if len(candidates) > 1 && b.hooks.Candidates != nil {
			b.hooks.Candidates(candidates)
		}
	}
}

// Message shows text, red if isErr, until the next ClearMessage or Message: on one line (each run of white
// space, line breaks included, becomes one space, as apierr.OneLine does) and as it is (no tview markup in
// text takes effect). It does not close an open bar; the message shows once the bar closes.
func (b *Bar) Message(text string, isErr bool) {
	text = tview.Escape(strings.Join(strings.Fields(text), " "))
	if isErr {
		text = "[red]" + text + "[-]"
	}
	b.text.SetText(text)
}

// ClearMessage removes the message.
func (b *Bar) ClearMessage() { b.text.SetText("") }

// ShownMessage returns the message as the line shows it (without its colour).
func (b *Bar) ShownMessage() string { return b.text.GetText(true) }
