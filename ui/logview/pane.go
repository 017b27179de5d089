package logview

import (
	"regexp"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"kscope/logs"
)

// logPane draws the lines of a logs.Ring that fit its box (those its filter does not hide), and only those: at the bottom while it follows,
// else from a position the user scrolled to. Lines are cut or wrapped at the box's width; the search's
// matches are highlighted (those of the focused line in orange). UI goroutine only.
type logPane struct {
	*tview.Box
	ring       *logs.Ring
	timestamps bool
	wrap       bool
	// follow keeps the last line at the bottom; scrolling up stops it, reaching the end again restarts it.
	follow bool
	// top and topRow are the first shown line and the first of its rows shown (when wrapped); kept up to
	// date by Draw while following.
	top    int64
	topRow int
	// focus is the line of the current search match (-1: none).
	focus int64
	// fg is the lines' color.
	fg tcell.Color
	// json is how the lines that are JSON objects are shown, fields the top-level ones of JSONFields.
	json   logs.JSONMode
	fields []string
	// width and height are the inner size at the last draw; drawnFrom and drawnTo the lines it showed
	// (drawnTo excluded; the first and last may be shown in part).
	width, height      int
	drawnFrom, drawnTo int64
	// scrolled is called after the user moved (follow may have changed).
	scrolled func()
}

func newLogPane(ring *logs.Ring) *logPane {
	p := &logPane{Box: tview.NewBox(), ring: ring, follow: true, wrap: true, focus: -1, fg: tview.Styles.PrimaryTextColor}
	p.SetBorder(true)
	return p
}

// logSpan is a run of a line's bytes drawn in one style.
type logSpan struct {
	from, to int
	tag      string // tview style tag opening the span ("" for the default style)
}

// segments cuts text into rows of at most width cells (one row only when not wrapping); each row is a
// pair of byte offsets.
func segments(text string, width int, wrap bool) [][2]int {
	if width <= 0 {
		return nil
	}
	var rows [][2]int
	start, cells, state := 0, 0, -1
	rest := text
	pos := 0
	for len(rest) > 0 {
		var cluster string
		var w int
		cluster, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
		if cells+w > width {
			rows = append(rows, [2]int{start, pos})
			if !wrap {
				return rows
			}
			start, cells = pos, 0
		}
		cells += w
		pos += len(cluster)
	}
	return append(rows, [2]int{start, pos})
}

// rowsOf cuts text into rows as segments does, each of its lines (in pretty JSON) starting a row.
func rowsOf(text string, width int, wrap bool) [][2]int {
	var rows [][2]int
	for start := 0; ; {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		for _, s := range segments(text[start:end], width, wrap) {
			rows = append(rows, [2]int{start + s[0], start + s[1]})
		}
		if end == len(text) {
			return rows
		}
		start = end + 1
	}
}

// shown is line as drawn: ANSI escape sequences removed, tabs expanded, other control characters replaced;
// a JSON object rendered as the JSON mode says (keys gives the spans of its keys, to color).
func (p *logPane) shown(l logs.Line) (text string, keys []logSpan) {
	display := l.Display(p.timestamps)
	if p.json == logs.JSONRaw {
		return printable(display), nil
	}
	r, ok := logs.RenderJSON(l.Text, p.json, p.fields)
	if !ok {
		return printable(display), nil
	}
	head := printable(display[:len(display)-len(l.Text)])
	for _, k := range r.Keys {
		keys = append(keys, logSpan{len(head) + k[0], len(head) + k[1], "[aqua]"})
	}
	return head + r.Text, keys
}

// rows is how many screen rows line takes.
func (p *logPane) rows(l logs.Line) int {
	if !p.wrap && p.json == logs.JSONRaw {
		return 1
	}
	text, _ := p.shown(l)
	return max(len(rowsOf(text, p.width, p.wrap)), 1)
}

// Draw draws the visible rows.
func (p *logPane) Draw(screen tcell.Screen) {
	p.DrawForSubclass(screen, p)
	x, y, w, h := p.GetInnerRect()
	p.width, p.height = w, h
	if w <= 0 || h <= 0 {
		return
	}
	if p.follow {
		p.scrollToEnd()
	}
	p.clampTop()
	row := 0
	p.drawnFrom, p.drawnTo = p.top, p.top
	for seq, ok := p.ring.NextShown(p.top); ok && row < h; seq, ok = p.ring.NextShown(seq + 1) {
		l, _ := p.ring.At(seq)
		p.drawnTo = seq + 1
		text, keys := p.shown(l)
		segs := rowsOf(text, w, p.wrap)
		if len(segs) == 0 {
			segs = [][2]int{{0, 0}}
		}
		if seq == p.top {
			segs = segs[min(p.topRow, len(segs)-1):]
		}
		spans := append(keys, p.spans(l, text, seq == p.focus)...)
		for _, s := range segs {
			if row >= h {
				break
			}
			tview.Print(screen, markup(text, s, spans), x, y+row, w, tview.AlignLeft, p.fg)
			row++
		}
	}
}

// scrollToEnd puts the top where the last shown line's last row is at the bottom.
func (p *logPane) scrollToEnd() {
	rows := 0
	for seq, ok := p.ring.PrevShown(p.ring.Next() - 1); ok; seq, ok = p.ring.PrevShown(seq - 1) {
		l, _ := p.ring.At(seq)
		n := p.rows(l)
		if rows+n >= p.height {
			p.top, p.topRow = seq, rows+n-p.height
			return
		}
		rows += n
	}
	p.top, p.topRow = p.ring.Dropped(), 0
}

// clampTop keeps the top on a kept line the filter shows: the first shown from the top, else the last shown.
func (p *logPane) clampTop() {
	if p.top < p.ring.Dropped() {
		p.top, p.topRow = p.ring.Dropped(), 0
	}
	if p.top >= p.ring.Next() && p.ring.Len() > 0 {
		p.top, p.topRow = p.ring.Next()-1, 0
	}
	if l, ok := p.ring.At(p.top); ok && l.Hidden {
		seq, found := p.ring.NextShown(p.top)
		if !found {
			seq, found = p.ring.PrevShown(p.top)
		}
		if found {
			p.top, p.topRow = seq, 0
		}
	}
}

// spans styles a line: its prefix in teal, the search's matches on yellow (orange on the focused line).
func (p *logPane) spans(l logs.Line, text string, focused bool) []logSpan {
	var spans []logSpan
	if l.Prefix != "" {
		spans = append(spans, logSpan{0, min(len(l.Prefix), len(text)), "[teal]"})
	}
	if l.Hit && p.ring.Search() != nil {
		tag := "[black:yellow]"
		if focused {
			tag = "[black:orange]"
		}
		for _, m := range p.ring.Search().FindAllStringIndex(text, -1) {
			if m[1] > m[0] {
				spans = append(spans, logSpan{m[0], m[1], tag})
			}
		}
	}
	return spans
}

// markup returns the bytes seg of text as tview markup, each byte in the style of the last span holding it.
func markup(text string, seg [2]int, spans []logSpan) string {
	tagAt := func(i int) string {
		tag := ""
		for _, s := range spans {
			if s.from <= i && i < s.to {
				tag = s.tag
			}
		}
		return tag
	}
	var b strings.Builder
	for pos := seg[0]; pos < seg[1]; {
		tag, end := tagAt(pos), pos+1
		for end < seg[1] && tagAt(end) == tag {
			end++
		}
		if tag != "" {
			b.WriteString(tag)
		}
		b.WriteString(tview.Escape(text[pos:end]))
		if tag != "" {
			b.WriteString("[-:-:-]")
		}
		pos = end
	}
	return b.String()
}

// ansiEscape matches the escape sequences of coloured output (CSI and OSC).
var ansiEscape = regexp.MustCompile(`\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])`)

// printable removes escape sequences, expands tabs to the next multiple of 8 cells and replaces the other
// control characters with U+FFFD, so that a line takes the cells it seems to.
func printable(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return s
	}
	s = ansiEscape.ReplaceAllString(s, "")
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch {
		case r == '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case r < 0x20 || r == 0x7f:
			b.WriteRune('\uFFFD')
			col++
		default:
			b.WriteRune(r)
			col++ // (an approximation for wide characters: tabs after them may land a cell off)
		}
	}
	return b.String()
}

// InputHandler scrolls: j k ↑ ↓ by a row, pgup pgdn ctrl-b ctrl-f by a page, g home to the start, G end
// to the end (following again).
func (p *logPane) InputHandler() func(*tcell.EventKey, func(tview.Primitive)) {
	return p.WrapInputHandler(func(ev *tcell.EventKey, _ func(tview.Primitive)) {
		page := max(p.height-1, 1)
		switch {
		case ev.Key() == tcell.KeyUp || ev.Rune() == 'k':
			p.scroll(-1)
		case ev.Key() == tcell.KeyDown || ev.Rune() == 'j':
			p.scroll(1)
		case ev.Key() == tcell.KeyPgUp || ev.Key() == tcell.KeyCtrlB:
			p.scroll(-page)
		case ev.Key() == tcell.KeyPgDn || ev.Key() == tcell.KeyCtrlF:
			p.scroll(page)
		case ev.Key() == tcell.KeyHome || ev.Rune() == 'g':
			p.follow, p.top, p.topRow = false, p.ring.Dropped(), 0
			p.clampTop()
		case ev.Key() == tcell.KeyEnd || ev.Rune() == 'G':
			p.follow = true
		default:
			return
		}
		if p.scrolled != nil {
			p.scrolled()
		}
	})
}

// scroll moves the view by n rows (negative: up). Moving up stops following; moving down to the end
// follows again.
func (p *logPane) scroll(n int) {
	if n < 0 {
		p.follow = false
	}
	p.clampTop()
	for ; n < 0; n++ {
		if p.topRow > 0 {
			p.topRow--
			continue
		}
		prev, ok := p.ring.PrevShown(p.top - 1)
		if !ok {
			break
		}
		l, _ := p.ring.At(prev)
		p.top, p.topRow = prev, p.rows(l)-1
	}
	for ; n > 0 && !p.follow; n-- {
		if p.atEnd() {
			p.follow = true
			break
		}
		l, _ := p.ring.At(p.top)
		if p.topRow+1 < p.rows(l) {
			p.topRow++
		} else if next, ok := p.ring.NextShown(p.top + 1); ok {
			p.top, p.topRow = next, 0
		}
	}
	if !p.follow && p.atEnd() && n > 0 {
		p.follow = true
	}
}

// atEnd tells whether the last shown line's last row is on screen.
func (p *logPane) atEnd() bool {
	rows := 0
	for seq, ok := p.ring.NextShown(p.top); ok; seq, ok = p.ring.NextShown(seq + 1) {
		l, _ := p.ring.At(seq)
		n := p.rows(l)
		if seq == p.top {
			n -= p.topRow
		}
		rows += n
		if rows > p.height {
			return false
		}
	}
	return true
}

// show makes seq the top line (a search match), not following.
func (p *logPane) show(seq int64) {
	p.follow, p.top, p.topRow, p.focus = false, seq, 0, seq
}

// MouseHandler scrolls by three rows a wheel step (with the mouse on).
func (p *logPane) MouseHandler() func(tview.MouseAction, *tcell.EventMouse, func(tview.Primitive)) (bool, tview.Primitive) {
	return p.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		if !p.InRect(ev.Position()) {
			return false, nil
		}
		switch action {
		case tview.MouseLeftDown:
			setFocus(p)
		case tview.MouseScrollUp:
			p.scroll(-3)
		case tview.MouseScrollDown:
			p.scroll(3)
		default:
			return false, nil
		}
		if p.scrolled != nil {
			p.scrolled()
		}
		return true, nil
	})
}
