package logview

import (
	"fmt"
	"slices"
	"strings"

	"kscope/logs"
)

// fieldsLabel begins the question of the JSON fields.
const fieldsLabel = "JSON fields"

// maxFieldsSeen bounds the fields the question lists.
const maxFieldsSeen = 12

// usualField tells whether the question proposes f first, when the lines have some of these fields.
func usualField(f string) bool {
	switch f {
	case "time", "ts", "timestamp", "@timestamp", "level", "lvl", "severity", "logger", "caller", "msg", "message",
		"error", "err":
		return true
	}
	return false
}

// toggleJSON shows the lines that are JSON objects as read → indented → as the fields chosen (asked, among
// those of the lines shown) → as read. Copy and save keep the lines as read.
func (v *View) toggleJSON() {
	next := v.pane.json.Next()
	if next != logs.JSONFields {
		v.setJSON(next, v.pane.fields)
		return
	}
	seen := v.fieldsSeen()
	if len(seen) == 0 {
		v.nav.Errorf("no JSON object among the %d lines shown: they are shown as read", v.ring.Shown())
		v.setJSON(logs.JSONRaw, v.pane.fields)
		return
	}
	initial := v.pane.fields
	if len(initial) == 0 {
		for _, f := range seen {
			if usualField(f) {
				initial = append(initial, f)
			}
		}
	}
	if len(initial) == 0 {
		initial = seen
	}
	label := fmt.Sprintf("%s (of %s) ", fieldsLabel, strings.Join(seen, " "))
	v.nav.Ask(label, strings.Join(initial, ","), func(text string) {
		if fields := parseFields(text); len(fields) > 0 {
			v.setJSON(logs.JSONFields, fields)
		} else {
			v.setJSON(logs.JSONRaw, v.pane.fields)
		}
	})
}

// setJSON shows the JSON lines as mode says.
func (v *View) setJSON(mode logs.JSONMode, fields []string) {
	v.pane.json, v.pane.fields, v.pane.topRow = mode, fields, 0
	v.render()
}

// parseFields reads the fields answered: names separated by commas or spaces, each once.
func parseFields(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' }) {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// fieldsSeen are the top-level fields of the JSON lines shown, the newest lines first.
func (v *View) fieldsSeen() []string {
	var texts []string
	for seq, ok := v.ring.PrevShown(v.ring.Next() - 1); ok && len(texts) < 1000; seq, ok = v.ring.PrevShown(seq - 1) {
		l, _ := v.ring.At(seq)
		texts = append(texts, l.Text)
	}
	return logs.FieldsSeen(texts, maxFieldsSeen)
}

// jsonTitle says the JSON mode in the title ("" when the lines are shown as read).
func (v *View) jsonTitle() string {
	switch v.pane.json {
	case logs.JSONPretty:
		return " · JSON pretty"
	case logs.JSONFields:
		return " · JSON " + strings.Join(v.pane.fields, ",")
	}
	return ""
}
