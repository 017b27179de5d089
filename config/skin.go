package config

import (
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// Color is a skin's color as k9s writes it: a name ("dodgerblue", case ignored), "#rrggbb", or "default"
// (also "-": the terminal's own). Empty is not set: kscope's own color stays.
type Color string

// TCell is c as a tcell color; ok is false when c is not set (or not a color: Load refuses those).
func (c Color) TCell() (color tcell.Color, ok bool) {
	s := strings.ToLower(strings.TrimSpace(string(c)))
	switch s {
	case "":
		return tcell.ColorDefault, false
	case "default", "-":
		return tcell.ColorDefault, true
	}
	if v, found := tcell.ColorNames[s]; found {
		return v, true
	}
	if col := tcell.GetColor(s); col != tcell.ColorDefault {
		return col, true
	}
	return tcell.ColorDefault, false
}

func (c Color) valid() bool {
	_, ok := c.TCell()
	return ok || strings.TrimSpace(string(c)) == ""
}

// Skin is a k9s skin (skins/NAME.yaml), the parts kscope has a counterpart for; k9s's other fields (xray,
// charts, the header's menu) are read and not used.
type Skin struct {
	// Name is the skin's name; Path the file it was read from.
	Name  string    `json:"-"`
	Path  string    `json:"-"`
	Style SkinStyle `json:"k9s"`
}

// SkinStyle is a skin's `k9s:` mapping.
type SkinStyle struct {
	Body struct {
		FgColor   Color `json:"fgColor"`
		BgColor   Color `json:"bgColor"`
		LogoColor Color `json:"logoColor"`
	} `json:"body"`
	Prompt struct {
		FgColor      Color `json:"fgColor"`
		BgColor      Color `json:"bgColor"`
		SuggestColor Color `json:"suggestColor"`
		Border       struct {
			CommandColor Color `json:"command"`
			DefaultColor Color `json:"default"`
		} `json:"border"`
	} `json:"prompt"`
	Help struct {
		FgColor      Color `json:"fgColor"`
		BgColor      Color `json:"bgColor"`
		SectionColor Color `json:"sectionColor"`
		KeyColor     Color `json:"keyColor"`
	} `json:"help"`
	Frame struct {
		Title struct {
			FgColor        Color `json:"fgColor"`
			BgColor        Color `json:"bgColor"`
			HighlightColor Color `json:"highlightColor"`
			CounterColor   Color `json:"counterColor"`
			FilterColor    Color `json:"filterColor"`
		} `json:"title"`
		Border struct {
			FgColor    Color `json:"fgColor"`
			FocusColor Color `json:"focusColor"`
		} `json:"border"`
		Crumbs struct {
			FgColor     Color `json:"fgColor"`
			BgColor     Color `json:"bgColor"`
			ActiveColor Color `json:"activeColor"`
		} `json:"crumbs"`
		Status struct {
			NewColor       Color `json:"newColor"`
			ModifyColor    Color `json:"modifyColor"`
			AddColor       Color `json:"addColor"`
			PendingColor   Color `json:"pendingColor"`
			ErrorColor     Color `json:"errorColor"`
			HighlightColor Color `json:"highlightColor"`
			KillColor      Color `json:"killColor"`
			CompletedColor Color `json:"completedColor"`
		} `json:"status"`
	} `json:"frame"`
	Info struct {
		SectionColor Color `json:"sectionColor"`
		FgColor      Color `json:"fgColor"`
	} `json:"info"`
	Views struct {
		Table struct {
			FgColor       Color `json:"fgColor"`
			BgColor       Color `json:"bgColor"`
			CursorFgColor Color `json:"cursorFgColor"`
			CursorBgColor Color `json:"cursorBgColor"`
			MarkColor     Color `json:"markColor"`
			Header        struct {
				FgColor     Color `json:"fgColor"`
				BgColor     Color `json:"bgColor"`
				SorterColor Color `json:"sorterColor"`
			} `json:"header"`
		} `json:"table"`
		Yaml struct {
			KeyColor   Color `json:"keyColor"`
			ValueColor Color `json:"valueColor"`
			ColonColor Color `json:"colonColor"`
		} `json:"yaml"`
		Logs struct {
			FgColor   Color `json:"fgColor"`
			BgColor   Color `json:"bgColor"`
			Indicator struct {
				FgColor        Color `json:"fgColor"`
				BgColor        Color `json:"bgColor"`
				ToggleOnColor  Color `json:"toggleOnColor"`
				ToggleOffColor Color `json:"toggleOffColor"`
			} `json:"indicator"`
		} `json:"logs"`
	} `json:"views"`
	Dialog struct {
		FgColor            Color `json:"fgColor"`
		BgColor            Color `json:"bgColor"`
		ButtonFgColor      Color `json:"buttonFgColor"`
		ButtonBgColor      Color `json:"buttonBgColor"`
		ButtonFocusFgColor Color `json:"buttonFocusFgColor"`
		ButtonFocusBgColor Color `json:"buttonFocusBgColor"`
		LabelFgColor       Color `json:"labelFgColor"`
	} `json:"dialog"`
}

// LoadSkin reads skins/NAME.yaml (kscope's, else k9s's). A skin that does not exist, cannot be parsed or
// names a color that is none is a Problem (naming the file, the line and the field); kscope then keeps its
// own look.
func LoadSkin(d Dirs, name string) (*Skin, File, error) {
	if !skinName.MatchString(name) {
		return nil, File{Kind: "skin"}, Problem{Path: name, Text: "not a skin's name (skins/NAME.yaml)"}
	}
	f := d.find("skin", "skins/"+name+".yaml")
	if f.From == "" {
		return nil, f, Problem{Path: f.Path, Text: fmt.Sprintf("skin %q not found (nor in %s)", name, d.K9s)}
	}
	s := &Skin{Name: name, Path: f.Path}
	if err := read(f, s); err != nil {
		return nil, f, err
	}
	if field, value, ok := badColor(reflect.ValueOf(s.Style), "k9s"); ok {
		data, _ := os.ReadFile(f.Path)
		text := fmt.Sprintf("%s: %q is not a color (a name such as dodgerblue, #rrggbb, or default)", field, value)
		if line := fieldLine(data, field); line > 0 {
			text = fmt.Sprintf("line %d: %s", line, text)
		}
		return nil, f, Problem{Path: f.Path, Text: text}
	}
	return s, f, nil
}

// badColor finds the first Color in v that is not one: its dotted path (from prefix) and value.
func badColor(v reflect.Value, prefix string) (field string, value Color, found bool) {
	t := v.Type()
	for i := 0; i < v.NumField(); i++ {
		name := prefix + "." + strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		switch fv := v.Field(i); {
		case fv.Type() == reflect.TypeFor[Color]():
			if c := fv.Interface().(Color); !c.valid() {
				return name, c, true
			}
		case fv.Kind() == reflect.Struct:
			if field, value, found = badColor(fv, name); found {
				return field, value, found
			}
		}
	}
	return "", "", false
}
