package prompt

import (
	"slices"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// driver plays the application around a Bar, as kscope's App does, without a tview Application: a root
// that lays out a view above the bar line and routes keys to the focused primitive, the bar's hooks, and a
// key that opens the bar while it is closed (`:` or `/` in the app). It tracks what each key must do to the
// bar and fails the test when it does something else. One driver serves one fuzz input.
type driver struct {
	t      *testing.T
	bar    *Bar
	root   *tview.Flex
	view   *tview.Box
	focus  tview.Primitive
	label  string
	done   func(text string)
	finish Completer // what the opener gives for Tab (nil: no completion)

	// What the hooks and the opener's functions saw.
	closes     int
	delivered  []string
	shown      [][]string // Candidates
	completion *completion
	reopened   *string // the initial text of an Open from inside done

	// atEnd: the cursor is known to be at the end of the text, with nothing selected.
	atEnd bool
}

// completion is one call of the completer: the text it was given and its answer.
type completion struct {
	in, out    string
	candidates []string
}

// newDriver returns a driver with its bar open after label; done and complete are the opener's (complete
// may be nil).
func newDriver(t *testing.T, label string, done func(string), complete Completer) *driver {
	d := &driver{t: t, view: tview.NewBox(), label: label, done: done}
	if complete != nil {
		d.finish = func(text string) (string, []string) {
			out, candidates := complete(text)
			d.completion = &completion{in: text, out: out, candidates: candidates}
			return out, candidates
		}
	}
	d.bar = New(Hooks{
		Focus:      d.setFocus,
		Closed:     func() { d.closes++; d.setFocus(d.view) },
		Candidates: func(c []string) { d.shown = append(d.shown, c) },
	})
	d.root = tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(d.view, 0, 1, true).
		AddItem(d.bar.Primitive(), 1, 0, false)
	d.setFocus(d.view)
	d.open("")
	return d
}

// setFocus moves the focus as tview's Application.SetFocus does.
func (d *driver) setFocus(p tview.Primitive) {
	if d.focus != nil {
		d.focus.Blur()
	}
	d.focus = p
	p.Focus(d.setFocus)
}

// open opens the bar with initial text, as the opener's key does.
func (d *driver) open(initial string) {
	d.bar.Open(d.label, initial, d.deliver, d.finish)
	d.atEnd = true
}

// deliver is the bar's done: it records the text, then runs the opener's.
func (d *driver) deliver(text string) {
	d.delivered = append(d.delivered, text)
	d.done(text)
}

// reopen opens the bar again from inside done.
func (d *driver) reopen(initial string) {
	d.open(initial)
	d.reopened = &initial
}

// press delivers ev as tview's event loop does (to the root, which routes it to the focused primitive) and
// checks what the bar did with it. While the bar is closed, the key opens it instead.
func (d *driver) press(ev *tcell.EventKey) {
	if !d.bar.Active() {
		d.open("")
		if d.bar.Text() != "" {
			d.t.Fatalf("the bar opened with %q, want it empty", d.bar.Text())
		}
		d.checkFocus("opening")
		return
	}
	before, closes, delivered, shown := d.bar.Text(), d.closes, len(d.delivered), len(d.shown)
	d.completion, d.reopened = nil, nil
	d.root.InputHandler()(ev, d.setFocus)
	key := ev.Name()
	switch ev.Key() {
	case tcell.KeyEnter:
		if d.closes != closes+1 || len(d.delivered) != delivered+1 || d.delivered[delivered] != before {
			d.t.Fatalf("%s on %q: closed %d times and delivered %q, want once and %q", key, before,
				d.closes-closes, d.delivered[delivered:], before)
		}
		if d.reopened == nil && d.bar.Active() {
			d.t.Fatalf("%s on %q: the bar is still open", key, before)
		}
	case tcell.KeyEscape:
		if d.closes != closes+1 || len(d.delivered) != delivered {
			d.t.Fatalf("%s on %q: closed %d times, delivered %q; want closed once, nothing delivered", key,
				before, d.closes-closes, d.delivered[delivered:])
		}
		if d.bar.Active() {
			d.t.Fatalf("%s on %q: the bar is still open", key, before)
		}
	default:
		if d.closes != closes || len(d.delivered) != delivered {
			d.t.Fatalf("%s on %q closed the bar (%d) or delivered %q", key, before, d.closes-closes,
				d.delivered[delivered:])
		}
		d.checkEdit(ev, before, d.shown[shown:])
	}
	d.checkFocus(key)
}

// checkFocus checks that an open bar has the focus on its input field (with the text done opened it with,
// if it did), and that a closed one has given the focus back to the view.
func (d *driver) checkFocus(after string) {
	switch {
	case d.bar.Active() && d.focus != d.bar.input:
		d.t.Fatalf("after %s the bar is open without the focus (on %T)", after, d.focus)
	case !d.bar.Active() && d.focus != d.view:
		d.t.Fatalf("after %s the bar is closed and the focus is not back on the view (on %T)", after, d.focus)
	case d.reopened != nil && (!d.bar.Active() || d.bar.Text() != *d.reopened):
		d.t.Fatalf("after %s done opened the bar with %q: open %v with %q", after, *d.reopened, d.bar.Active(),
			d.bar.Text())
	}
}

// checkEdit checks what a key that neither submits nor cancels did to the text, which was before: Tab
// puts the completer's answer in place (and shows its candidates when there are several), Backtab and Tab
// without a completer change nothing, a character typed at the end is appended, Backspace at the end keeps
// what is before the cursor. Other keys (cursor moves, ctrl and alt keys) may edit anywhere: the cursor is
// known to be at the end again after the next Tab or Open.
func (d *driver) checkEdit(ev *tcell.EventKey, before string, shown [][]string) {
	text, key := d.bar.Text(), ev.Name()
	if ev.Key() != tcell.KeyTab && (d.completion != nil || len(shown) > 0) {
		d.t.Fatalf("%s on %q completed (%v) or showed candidates %q", key, before, d.completion, shown)
	}
	switch {
	case ev.Key() == tcell.KeyTab && d.finish != nil:
		d.checkCompleted(before, shown)
		d.atEnd = true
	case ev.Key() == tcell.KeyTab || ev.Key() == tcell.KeyBacktab:
		if text != before || len(shown) > 0 {
			d.t.Fatalf("%s without completion changed %q to %q (candidates %q)", key, before, text, shown)
		}
	case ev.Key() == tcell.KeyRune && ev.Modifiers()&tcell.ModAlt == 0:
		if want := before + string(ev.Rune()); d.atEnd && text != want {
			d.t.Fatalf("typing %q at the end of %q left %q, want %q", ev.Rune(), before, text, want)
		}
	case ev.Key() == tcell.KeyBackspace:
		if d.atEnd && !strings.HasPrefix(before, text) {
			d.t.Fatalf("%s at the end of %q left %q, not a prefix", key, before, text)
		}
	default:
		d.atEnd = false
	}
}

// checkCompleted checks a Tab with a completer on before: it was asked about before, its answer is the
// text, and its candidates were shown if there were several.
func (d *driver) checkCompleted(before string, shown [][]string) {
	c := d.completion
	switch {
	case c == nil:
		d.t.Fatalf("Tab on %q did not ask the completer", before)
	case c.in != before || d.bar.Text() != c.out:
		d.t.Fatalf("Tab on %q: the completer was asked about %q and answered %q; the text is %q", before,
			c.in, c.out, d.bar.Text())
	case len(c.candidates) > 1 && (len(shown) != 1 || !slices.Equal(shown[0], c.candidates)):
		d.t.Fatalf("Tab on %q: candidates %q, shown %q", before, c.candidates, shown)
	case len(c.candidates) <= 1 && len(shown) > 0:
		d.t.Fatalf("Tab on %q: %d candidates, shown %q", before, len(c.candidates), shown)
	}
}

// draw draws the bar's line on screen (one row) as the redraw after an input would, and checks it: it
// begins with the label while the bar is open, and shows message (the one-line text the last Message was
// given) as it is, once closed, when message is printable ASCII that fits.
func (d *driver) draw(screen tcell.SimulationScreen, message string) {
	d.t.Helper()
	w, _ := screen.Size()
	d.bar.Primitive().SetRect(0, 0, w, 1)
	screen.Clear()
	d.bar.Primitive().Draw(screen)
	screen.Show()
	line := screenRow(screen, 0)
	switch {
	case d.bar.Active() && !strings.HasPrefix(line, d.label):
		d.t.Fatalf("the open bar shows %q, without its label %q", line, d.label)
	case !d.bar.Active() && printableASCII(message) && len(message) <= w && line != message:
		d.t.Fatalf("the message line shows %q, want %q", line, message)
	}
	if msg := d.bar.ShownMessage(); strings.ContainsAny(msg, "\n\r") {
		d.t.Fatalf("the message %q spans lines", msg)
	}
}

// screenRow returns row y of screen as text, trailing spaces trimmed.
func screenRow(screen tcell.SimulationScreen, y int) string {
	cells, w, _ := screen.GetContents()
	var b strings.Builder
	for _, c := range cells[y*w : (y+1)*w] {
		if len(c.Runes) == 0 {
			b.WriteByte(' ')
			continue
		}
		b.WriteString(string(c.Runes))
	}
	return strings.TrimRight(b.String(), " ")
}

// printableASCII tells whether s is only printable ASCII characters (each one cell on the screen).
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}
