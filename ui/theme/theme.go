package theme

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/config"
)

// Theme is the UI's colors: kscope's own, with what a k9s skin sets over them. The skin's parts map to
// kscope's as follows (k9s's key → where it shows in kscope):
//
//	body.fgColor/bgColor           every view's text and background, the header, the status line
//	frame.border.fgColor/focusColor the views' borders (kscope's view always has the focus: focusColor wins)
//	frame.title.fgColor/counterColor/filterColor  a view's title, its row count, its filter
//	frame.crumbs.*                 the breadcrumbs (activeColor: the current view's)
//	frame.status.addColor/modifyColor/killColor/errorColor  rows just changed, deleted rows, errors
//	info.sectionColor/fgColor      the header's labels (Context:) and values
//	views.table.*                  the tables' rows, cursor and header (sorterColor: the sort arrow; markColor: the rows marked)
//	views.yaml.*                   the YAML view's keys, colons and values
//	views.logs.*                   the logs' text and background; indicator.toggleOn/OffColor: on/off in its status
//	prompt.*                       the command and filter bar (border.command: its label); suggestColor: Tab's candidates
//	help.*                         the help screen (keyColor: the KEY column; sectionColor: its header)
//	dialog.*                       the questions asked before a write, and their buttons
//
// A Theme is not changed after New; it is read on the UI goroutine (or any, since nothing writes it).
type Theme struct {
	skinned bool
	// body: set only by a skin (kscope otherwise draws on tview's defaults).
	bodyFg, bodyBg, border tcell.Color
	hasBodyFg, hasBodyBg   bool
	hasBorder              bool
	tableBg                tcell.Color // views.table.bgColor: the tables' background, over the body's
	hasTableBg             bool

	// RowFg is the rows' text; Dim the notes that stand for absent content ("no rows match", "no version seen
	// yet"); ErrorColor an error's text.
	RowFg, RowFlash, RowGhost, Dim, ErrorColor tcell.Color
	// RowMarked is the text of the rows marked (k9s's views.table.markColor).
	RowMarked      tcell.Color
	Header, Cursor tcell.Style
	Sorter         string // tag before the sort arrow ("" keeps the header's)

	Title, Counter, Filter string // tags
	ErrorTag               string
	InfoLabel, InfoValue   string
	Crumb, CrumbActive     string
	Suggest                string
	toggleOn, toggleOff    string

	yamlKey, yamlColon, yamlValue string

	LogFg, LogBg tcell.Color
	HasLogBg     bool

	promptLabel, promptText, promptBg tcell.Color
	HelpText, HelpKey                 tcell.Color
	HelpHeader                        tcell.Style
	HelpBg                            tcell.Color
	HasHelpBg                         bool

	dialog *config.SkinStyle // nil: tview's Modal as it is
}

// Default is kscope's own look, without a skin.
func Default() *Theme { return New(nil) }

// New is kscope's look with skin's colors over it (nil: kscope's look).
func New(skin *config.Skin) *Theme {
	t := &Theme{
		RowFg: ColorNormal, RowFlash: ColorFlash, RowGhost: ColorGhost, Dim: ColorDim, ErrorColor: tcell.ColorRed,
		RowMarked: tcell.ColorDarkGoldenrod,
		Header:    headerStyle(), Cursor: tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack),
		Title: "[aqua::b]", Counter: "[white]", Filter: "[orange::b]", ErrorTag: "[red]",
		InfoLabel: "[orange]", InfoValue: "", Crumb: "[gray]", CrumbActive: "[aqua]", Suggest: "[gray]",
		yamlKey: "[steelblue]", LogFg: tview.Styles.PrimaryTextColor,
		promptLabel: tcell.ColorAqua, promptText: tcell.ColorWhite, promptBg: tcell.ColorDefault,
		HelpText: ColorNormal, HelpKey: ColorNormal, HelpHeader: headerStyle(),
	}
	if skin == nil {
		return t
	}
	t.skinned = true
	s := skin.Style
	t.bodyFg, t.hasBodyFg = s.Body.FgColor.TCell()
	t.bodyBg, t.hasBodyBg = s.Body.BgColor.TCell()
	if c, ok := s.Frame.Border.FgColor.TCell(); ok {
		t.border, t.hasBorder = c, true
	}
	if c, ok := s.Frame.Border.FocusColor.TCell(); ok {
		t.border, t.hasBorder = c, true
	}
	t.skinTable(s)
	t.skinText(s)
	t.skinBars(s)
	if s.Dialog != (config.SkinStyle{}).Dialog {
		t.dialog = &s
	}
	return t
}

// skinTable takes the table's colors and the rows' states.
func (t *Theme) skinTable(s config.SkinStyle) {
	tb := s.Views.Table
	set(&t.RowFg, tb.FgColor)
	set(&t.RowFlash, s.Frame.Status.AddColor)
	set(&t.RowFlash, s.Frame.Status.ModifyColor)
	set(&t.RowGhost, s.Frame.Status.KillColor)
	set(&t.RowMarked, tb.MarkColor)
	set(&t.ErrorColor, s.Frame.Status.ErrorColor)
	t.Cursor = style(style(t.Cursor, tb.CursorBgColor, true), tb.CursorFgColor, false)
	if c, ok := tb.BgColor.TCell(); ok {
		t.tableBg, t.hasTableBg = c, true
	}
	t.Header = style(style(t.Header, tb.Header.FgColor, false), tb.Header.BgColor, true)
	t.Sorter = tag(s.Views.Table.Header.SorterColor, "")
}

// skinText takes the titles', header's, YAML's, logs' and help's colors.
func (t *Theme) skinText(s config.SkinStyle) {
	f := s.Frame
	t.Title = tagAttr(f.Title.FgColor, "b", t.Title)
	t.Counter = tag(f.Title.CounterColor, t.Counter)
	t.Filter = tagAttr(f.Title.FilterColor, "b", t.Filter)
	t.ErrorTag = tag(f.Status.ErrorColor, t.ErrorTag)
	t.InfoLabel = tag(s.Info.SectionColor, t.InfoLabel)
	t.InfoValue = tag(s.Info.FgColor, t.InfoValue)
	if fg, bg, act := f.Crumbs.FgColor, f.Crumbs.BgColor, f.Crumbs.ActiveColor; fg != "" || bg != "" || act != "" {
		t.Crumb = fmt.Sprintf("[%s:%s]", tagColor(fg, "gray"), tagColor(bg, "-"))
		t.CrumbActive = fmt.Sprintf("[%s:%s]", tagColor(fg, "aqua"), tagColor(act, "-"))
	}
	t.yamlKey = tag(s.Views.Yaml.KeyColor, t.yamlKey)
	t.yamlColon = tag(s.Views.Yaml.ColonColor, "")
	t.yamlValue = tag(s.Views.Yaml.ValueColor, "")
	if t.hasBodyFg {
		t.LogFg = t.bodyFg
	}
	set(&t.LogFg, s.Views.Logs.FgColor)
	if c, ok := s.Views.Logs.BgColor.TCell(); ok {
		t.LogBg, t.HasLogBg = c, true
	}
	t.toggleOn = tag(s.Views.Logs.Indicator.ToggleOnColor, "")
	t.toggleOff = tag(s.Views.Logs.Indicator.ToggleOffColor, "")
	set(&t.HelpText, s.Help.FgColor)
	t.HelpKey = t.HelpText
	set(&t.HelpKey, s.Help.KeyColor)
	t.HelpHeader = style(t.HelpHeader, s.Help.SectionColor, false)
	if c, ok := s.Help.BgColor.TCell(); ok {
		t.HelpBg, t.HasHelpBg = c, true
	}
}

// skinBars takes the prompt's colors.
func (t *Theme) skinBars(s config.SkinStyle) {
	set(&t.promptLabel, s.Prompt.Border.DefaultColor)
	set(&t.promptLabel, s.Prompt.Border.CommandColor)
	set(&t.promptText, s.Prompt.FgColor)
	set(&t.promptBg, s.Prompt.BgColor)
	t.Suggest = tag(s.Prompt.SuggestColor, t.Suggest)
}

// set replaces *dst with c when c is set.
func set(dst *tcell.Color, c config.Color) {
	if v, ok := c.TCell(); ok {
		*dst = v
	}
}

// style is st with c (when set) as its background or foreground.
func style(st tcell.Style, c config.Color, background bool) tcell.Style {
	v, ok := c.TCell()
	switch {
	case !ok:
		return st
	case background:
		return st.Background(v)
	}
	return st.Foreground(v)
}

// tagColor is c as a tview color tag's color, else def.
func tagColor(c config.Color, def string) string {
	v, ok := c.TCell()
	switch {
	case !ok:
		return def
	case v == tcell.ColorDefault:
		return "-"
	}
	return fmt.Sprintf("#%06x", v.Hex())
}

// tag is the tview tag for c ([#rrggbb]), else def.
func tag(c config.Color, def string) string {
	if _, ok := c.TCell(); !ok {
		return def
	}
	return "[" + tagColor(c, "-") + "]"
}

// tagAttr is tag with attributes ([#rrggbb::b]), else def.
func tagAttr(c config.Color, attr, def string) string {
	if _, ok := c.TCell(); !ok {
		return def
	}
	return "[" + tagColor(c, "-") + "::" + attr + "]"
}

// box is what the views' primitives share: a background and a border.
type box interface {
	SetBackgroundColor(tcell.Color) *tview.Box
	SetBorderColor(tcell.Color) *tview.Box
}

// Paint gives p the skin's background and border (nothing without a skin).
func (t *Theme) Paint(p tview.Primitive) {
	b, ok := p.(box)
	if !ok || !t.skinned {
		return
	}
	if _, table := p.(*tview.Table); table && t.hasTableBg {
		b.SetBackgroundColor(t.tableBg)
	} else if t.hasBodyBg {
		b.SetBackgroundColor(t.bodyBg)
	}
	if t.hasBorder {
		b.SetBorderColor(t.border)
	}
}

// On is a logs toggle's state, in the skin's indicator colors.
func (t *Theme) On(b bool) string {
	if b {
		return t.toggleOn + "on" + Reset(t.toggleOn)
	}
	return t.toggleOff + "off" + Reset(t.toggleOff)
}

// Reset is the tag that ends tag ("" when tag is "").
func Reset(tag string) string {
	if tag == "" {
		return ""
	}
	return "[-]"
}

// YAMLLine escapes one YAML line, its mapping key (if any) in the key color, the colon and the value in
// theirs.
func (t *Theme) YAMLLine(line string) string {
	line, nl := strings.CutSuffix(line, "\n")
	end := ""
	if nl {
		end = "\n"
	}
	m := yamlKey.FindStringSubmatchIndex(line)
	if m == nil {
		return t.yamlValue + tview.Escape(line) + Reset(t.yamlValue) + end
	}
	return tview.Escape(line[:m[4]]) + t.yamlKey + tview.Escape(line[m[4]:m[5]]) + "[-]" +
		t.yamlColon + ":" + Reset(t.yamlColon) + t.yamlValue + tview.Escape(line[m[5]+1:]) + Reset(t.yamlValue) + end
}

// PaintDialog colors a question asked before a write with the skin's dialog colors (nothing without them).
func (t *Theme) PaintDialog(m *tview.Modal) {
	if t.dialog == nil {
		return
	}
	d := t.dialog.Dialog
	if c, ok := d.BgColor.TCell(); ok {
		m.SetBackgroundColor(c)
	}
	if c, ok := d.FgColor.TCell(); ok {
		m.SetTextColor(c)
	}
	button := style(style(tcell.StyleDefault.Background(tcell.ColorBlue).Foreground(tcell.ColorWhite), d.ButtonBgColor, true), d.ButtonFgColor, false)
	focus := style(style(tcell.StyleDefault.Background(tcell.ColorWhite).Foreground(tcell.ColorBlue), d.ButtonFocusBgColor, true), d.ButtonFocusFgColor, false)
	m.SetButtonStyle(button).SetButtonActivatedStyle(focus)
}

// Skinned tells whether a skin set the theme (else it is kscope's own look, and the views keep tview's
// backgrounds and borders).
func (t *Theme) Skinned() bool { return t.skinned }

// BodyFg is the skin's text color for the views and the app's own lines, ok false when it sets none.
func (t *Theme) BodyFg() (fg tcell.Color, ok bool) { return t.bodyFg, t.hasBodyFg }

// PromptColors are the prompt line's label, text and background: the skin's prompt colors, its body's
// background when it sets no prompt background.
func (t *Theme) PromptColors() (label, text, bg tcell.Color) {
	bg = t.promptBg
	if bg == tcell.ColorDefault && t.hasBodyBg {
		bg = t.bodyBg
	}
	return t.promptLabel, t.promptText, bg
}

// kscope's own colors: rows in ColorNormal, fresh rows flash in ColorFlash, deleted rows linger in ColorGhost,
// notes that stand for absent content in ColorDim.
const (
	ColorNormal = tcell.ColorAqua
	ColorFlash  = tcell.ColorGreen
	ColorGhost  = tcell.ColorGray
	ColorDim    = tcell.ColorGray
)

// headerStyle is kscope's table header: bold white.
func headerStyle() tcell.Style { return tcell.StyleDefault.Foreground(tcell.ColorWhite).Bold(true) }

// yamlKey matches a YAML mapping key at the start of a line (after indentation and a list dash).
var yamlKey = regexp.MustCompile(`^(\s*(?:- )?)([^:\s][^:]*):(\s|$)`)
