package pulse

import (
	"kscope/cluster"
	"kscope/ui"
	"kscope/ui/keymap"
)

// keys are the screen's keys: its opener on a live table.
var keys = struct{ Pulse keymap.KeyDef }{
	Pulse: keymap.NewKey("pulse", keymap.Char('i'), "the table's informer at work: lists, watch, events per second, relists and reconnects"),
}

// Spec declares the screen to the app (ui.Options.Registered): i on a live table opens the pulse of its rows.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Pulse view (i on a live table)", Screen: "ui/pulse", Defs: []keymap.KeyDef{keys.Pulse}},
	Tables: []ui.TableKey{{
		Key:  keys.Pulse,
		Open: func(s ui.Session, title string, src cluster.RowSource) { s.Push(New(s, title, src)) },
	}},
}
