package ui

import (
	"fmt"
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
//	views.table.*                  the tables' rows, cursor and header (sorterColor: the sort arrow)
//	views.yaml.*                   the YAML view's keys, colons and values
//	views.logs.*                   the logs' text and background; indicator.toggleOn/OffColor: on/off in its status
//	prompt.*                       the command and filter bar (border.command: its label); suggestColor: Tab's candidates
//	help.*                         the help screen (keyColor: the KEY column; sectionColor: its header)
//	dialog.*                       the questions asked before a write, and their buttons
//
// A Theme is not changed after New; it is read on the UI goroutine.
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
	RowFg, rowFlash, rowGhost, Dim, ErrorColor tcell.Color
	Header, Cursor                             tcell.Style
	sorter                                     string // tag before the sort arrow ("" keeps the header's)

	Title, Counter, Filter string // tags
	errorTag               string
	infoLabel, infoValue   string
	crumb, crumbActive     string
	suggest                string
	toggleOn, toggleOff    string

	yamlKey, yamlColon, yamlValue string

	LogFg, LogBg tcell.Color
	HasLogBg     bool

	promptLabel, promptText, promptBg tcell.Color
	helpText, helpKey                 tcell.Color
	helpHeader                        tcell.Style
	helpBg                            tcell.Color
	hasHelpBg                         bool

	dialog *config.SkinStyle // nil: tview's Modal as it is
}

// DefaultTheme is kscope's own look, without a skin.
func DefaultTheme() *Theme { return newTheme(nil) }

// newTheme is kscope's look with skin's colors over it (nil: kscope's look).
func newTheme(skin *config.Skin) *Theme {
	t := &Theme{
		RowFg: colorNormal, rowFlash: colorFlash, rowGhost: colorGhost, Dim: colorDimText, ErrorColor: tcell.ColorRed,
		Header: styleHeader, Cursor: tcell.StyleDefault.Background(tcell.ColorAqua).Foreground(tcell.ColorBlack),
		Title: "[aqua::b]", Counter: "[white]", Filter: "[orange::b]", errorTag: "[red]",
		infoLabel: "[orange]", infoValue: "", crumb: "[gray]", crumbActive: "[aqua]", suggest: "[gray]",
		yamlKey: "[steelblue]", LogFg: tview.Styles.PrimaryTextColor,
		promptLabel: tcell.ColorAqua, promptText: tcell.ColorWhite, promptBg: tcell.ColorDefault,
		helpText: colorNormal, helpKey: colorNormal, helpHeader: styleHeader,
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
	set(&t.rowFlash, s.Frame.Status.AddColor)
	set(&t.rowFlash, s.Frame.Status.ModifyColor)
	set(&t.rowGhost, s.Frame.Status.KillColor)
	set(&t.ErrorColor, s.Frame.Status.ErrorColor)
	t.Cursor = style(style(t.Cursor, tb.CursorBgColor, true), tb.CursorFgColor, false)
	if c, ok := tb.BgColor.TCell(); ok {
		t.tableBg, t.hasTableBg = c, true
	}
	t.Header = style(style(t.Header, tb.Header.FgColor, false), tb.Header.BgColor, true)
	t.sorter = tag(s.Views.Table.Header.SorterColor, "")
}

// skinText takes the titles', header's, YAML's, logs' and help's colors.
func (t *Theme) skinText(s config.SkinStyle) {
	f := s.Frame
	t.Title = tagAttr(f.Title.FgColor, "b", t.Title)
	t.Counter = tag(f.Title.CounterColor, t.Counter)
	t.Filter = tagAttr(f.Title.FilterColor, "b", t.Filter)
	t.errorTag = tag(f.Status.ErrorColor, t.errorTag)
	t.infoLabel = tag(s.Info.SectionColor, t.infoLabel)
	t.infoValue = tag(s.Info.FgColor, t.infoValue)
	if fg, bg, act := f.Crumbs.FgColor, f.Crumbs.BgColor, f.Crumbs.ActiveColor; fg != "" || bg != "" || act != "" {
		t.crumb = fmt.Sprintf("[%s:%s]", tagColor(fg, "gray"), tagColor(bg, "-"))
		t.crumbActive = fmt.Sprintf("[%s:%s]", tagColor(fg, "aqua"), tagColor(act, "-"))
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
	set(&t.helpText, s.Help.FgColor)
	t.helpKey = t.helpText
	set(&t.helpKey, s.Help.KeyColor)
	t.helpHeader = style(t.helpHeader, s.Help.SectionColor, false)
	if c, ok := s.Help.BgColor.TCell(); ok {
		t.helpBg, t.hasHelpBg = c, true
	}
}

// skinBars takes the prompt's colors.
func (t *Theme) skinBars(s config.SkinStyle) {
	set(&t.promptLabel, s.Prompt.Border.DefaultColor)
	set(&t.promptLabel, s.Prompt.Border.CommandColor)
	set(&t.promptText, s.Prompt.FgColor)
	set(&t.promptBg, s.Prompt.BgColor)
	t.suggest = tag(s.Prompt.SuggestColor, t.suggest)
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
		return t.toggleOn + "on" + reset(t.toggleOn)
	}
	return t.toggleOff + "off" + reset(t.toggleOff)
}

// reset ends a tag ("" for none).
func reset(tag string) string {
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
		return t.yamlValue + tview.Escape(line) + reset(t.yamlValue) + end
	}
	return tview.Escape(line[:m[4]]) + t.yamlKey + tview.Escape(line[m[4]:m[5]]) + "[-]" +
		t.yamlColon + ":" + reset(t.yamlColon) + t.yamlValue + tview.Escape(line[m[5]+1:]) + reset(t.yamlValue) + end
}

// applyTheme colors the app's own lines (header, prompt, status) and the stack's frame with the skin.
func (a *App) applyTheme() {
	t := a.theme
	if !t.skinned {
		return
	}
	for _, p := range []tview.Primitive{a.header.view, a.status.view, a.body, a.root} {
		t.Paint(p)
	}
	if t.hasBodyFg {
		a.header.view.SetTextColor(t.bodyFg)
		a.status.view.SetTextColor(t.bodyFg)
	}
	bg := t.promptBg
	if bg == tcell.ColorDefault && t.hasBodyBg {
		bg = t.bodyBg
	}
	a.bar.SetColors(t.promptLabel, t.promptText, bg)
}

// dialogColors colors a question asked before a write with the skin's dialog colors.
func (t *Theme) dialogColors(m *tview.Modal) {
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

// paintView gives the top view's primitive the skin's background and border: the help's and the logs'
// own backgrounds where the skin has them.
func (t *Theme) paintView(v Screen) {
	if !t.skinned {
		return
	}
	p := v.Primitive()
	t.Paint(p)
	b, ok := p.(box)
	if !ok {
		return
	}
	if s, ok := v.(SkinnedScreen); ok {
		if bg, ok := s.SkinBackground(t); ok {
			b.SetBackgroundColor(bg)
		}
	}
}

// SkinnedScreen is a view whose background the skin sets apart (k9s's help and log views).
type SkinnedScreen interface {
	// SkinBackground returns the view's background in skin t, ok false when the skin does not set one.
	SkinBackground(t *Theme) (bg tcell.Color, ok bool)
}

func (*HelpView) SkinBackground(t *Theme) (tcell.Color, bool) { return t.helpBg, t.hasHelpBg }
