// Package forwards holds the port-forwards a kscope session started, drawing nothing: where each listens,
// what it reaches, since when, and how it stands (active, stopped, or ended with a reason), with the
// functions that stop them. Package ui starts the forwards and records them here; the :pf screen
// (package ui/portforwards) lists them and is told when they change.
//
// A List is used on the UI goroutine only, as the screens are.
package forwards
