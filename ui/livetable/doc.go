// Package livetable is kscope's live table: one source's rows (a watch.Source, or a union of namespaces or
// kinds) shown as a tview table, sorted and filtered by the source, changed rows flashing and deleted rows
// dimmed a moment, the selection following its object; its own columns (HEALTH on shift-h, a pods or nodes
// table's metrics) joined to the server's; a views.yaml layout; its keys for filtering, sorting, wide columns
// and saving the rows to a file; the fault filter (ctrl-z, faults.go: only the rows that are not healthy, by a
// pod's cells or by kstatus through the HEALTH column); its marks (rows marked by key for the verbs to act on:
// marks.go); its status line (sync state, counts, sort, pulse).
//
// It sits under ui: ui imports it, and it imports only the leaves (ui/keymap, ui/theme) and the models
// (watch, union, cluster), never ui. What it needs of the app is the Host it is made with (host.go), one per
// table: the app's services (goroutines, the UI goroutine's queue, the clock, the prompt and status lines,
// the cluster) and the app's part of a table: its keys around the table's own (help, the object verbs and
// their access checks, the screens a table opens), what enter does on a row (drill down, YAML, a namespace
// switch), and a namespace switch. ui's tableHost is that host; ui's tests drive real tables through the app,
// and this package's tests drive one over a fake host (host_test.go) and watch.StaticSource.
//
// A Table is a screen of the app's stack (ui.Screen, structurally); every method runs on the UI goroutine.
package livetable
