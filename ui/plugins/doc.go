// Package plugins holds kscope's configured keys: the plugins (plugins.yaml, its folders and each
// context's plugins file, k9s's format) that run a command on a screen's selection, and the hotkeys
// (hotkeys.yaml) that run a command line. A plugin applies where its scopes name the screen's resource
// (Subject; a live table is one through Table); its variables (the row's, the connection's, its inputs'
// answers) reach its arguments only when no shell could read them as code, and its environment always;
// a dangerous plugin is refused in read-only mode and, like one that says confirm, asks first. It runs
// with the screen suspended until it exits, or in the background (its output's tail kept, killed with
// what it started when kscope quits: Wait). On a table with rows marked (MarkedSubject) it runs once per
// marked row, as k9s runs it per selection: its inputs asked once, one question listing the rows when it
// asks first, one line naming the foreground runs that failed (marked.go).
//
// It sits under ui: ui imports it, and it imports only the leaves (ui/keymap), ui/livetable and the
// models (config, pluginvars, cluster, discovery, watch), never ui. What it needs of the app is the Host
// it is made with (host.go); ui's pluginHost (ui/pluginhost.go) is that host, and ui gives the keys out
// among kscope's own (ui/keyconflicts.go: a configured key on a key taken already is left out, unless it
// says override). ui's tests drive the plugins through the app; this package's tests drive them over a
// fake host (plugins_test.go).
//
// A Set runs on the UI goroutine, but for Runs and Wait.
package plugins
