// Package ui owns kscope's terminal interface, built on tview and tcell: the resource picker, the live table,
// the YAML and events views, the command and filter bars and the help screen. All drawing happens on the one
// tview goroutine; data arrives from package watch and is applied in batched QueueUpdateDraw calls.
package ui
