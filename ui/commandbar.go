package ui

import (
	"sort"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/apierr"
)

// CommandBar is the prompt line: it shows a one-line message, or takes input after `:` (commands, with Tab
// completion) or `/` (filter, search). UI goroutine only.
type CommandBar struct {
	app   *App
	line  *tview.Pages
	text  *tview.TextView
	input *tview.InputField

	active   bool
	onDone   func(text string)
	complete func(text string) (string, []string)
}

// NewCommandBar returns the prompt line of a.
func NewCommandBar(a *App) *CommandBar {
	b := &CommandBar{app: a, line: tview.NewPages(), text: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
	b.input = tview.NewInputField().
		SetFieldBackgroundColor(tcell.ColorDefault).
		SetFieldTextColor(tcell.ColorWhite).
		SetLabelColor(tcell.ColorAqua)
	b.input.SetDoneFunc(b.done)
	b.line.AddPage("message", b.text, true, true)
	b.line.AddPage("input", b.input, true, false)
	return b
}

// Active tells whether the bar is taking input.
func (b *CommandBar) Active() bool { return b.active }

// Open starts taking input after label, beginning with initial. done receives the text on Enter; complete,
// if not nil, answers Tab with the completed text and the candidates.
func (b *CommandBar) Open(label, initial string, done func(string), complete func(string) (string, []string)) {
	b.active, b.onDone, b.complete = true, done, complete
	b.input.SetLabel(label).SetText(initial)
	b.line.SwitchToPage("input")
	b.app.tv.SetFocus(b.input)
}

func (b *CommandBar) close() {
	b.active = false
	b.line.SwitchToPage("message")
	if v := b.app.top(); v != nil {
		b.app.tv.SetFocus(v.primitive())
	}
}

func (b *CommandBar) done(k tcell.Key) {
	switch k {
	case tcell.KeyEnter:
		text, fn := b.input.GetText(), b.onDone
		b.close()
		b.app.refreshChrome()
		fn(text)
	case tcell.KeyEscape:
		b.close()
		b.app.refreshChrome()
	case tcell.KeyTab:
		if b.complete == nil {
			return
		}
		text, candidates := b.complete(b.input.GetText())
		b.input.SetText(text)
		if len(candidates) > 1 {
			b.app.status.view.SetText("[gray]" + tview.Escape(strings.Join(candidates, "  ")) + "[-]")
		}
	}
}

// Message shows text (red if isErr) until the next key.
func (b *CommandBar) Message(text string, isErr bool) {
	text = tview.Escape(apierr.OneLine(text))
	if isErr {
		text = "[red]" + text + "[-]"
	}
	b.text.SetText(text)
}

// ClearMessage removes the message.
func (b *CommandBar) ClearMessage() { b.text.SetText("") }

// oneLine folds text onto one line.

// completeWord completes word from candidates: the one match, or the longest common prefix of several.
// It returns the completion and the matching candidates (sorted, deduplicated).
func completeWord(word string, candidates []string) (string, []string) {
	seen := map[string]bool{}
	var matches []string
	for _, c := range candidates {
		if strings.HasPrefix(c, word) && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	if len(matches) == 0 {
		return word, nil
	}
	prefix := matches[0]
	for _, m := range matches[1:] {
		for !strings.HasPrefix(m, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	return prefix, matches
}
