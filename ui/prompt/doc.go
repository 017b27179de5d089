// Package prompt is kscope's prompt line and what it does with the text typed into it: the Bar widget (a
// one-line message, or a line of input after `:` or `/` with Tab completion), the command line's own
// commands (CommandLine: splitting a line into words, running the command its first word names, completing
// it on Tab) and word completion (CompleteWord).
//
// It links only tview, tcell and the standard library, never client-go or apimachinery, so that it can be
// fuzzed fast: `go test -fuzz` instruments every package linked into the test binary, and with client-go's
// the bookkeeping alone holds a target to under a thousand inputs a second per worker. Its fuzz targets
// drive the Bar through tview's input handler with tcell key events, without an application or a redraw
// per key, thousands of inputs a second. What a filter typed after `/` means is not parsed here: the Bar
// hands the text to its opener (package ui), which parses it with watch.ParseFilter (fuzzed in package
// watch).
//
// The Bar and the functions that CommandLine calls run on the UI goroutine; CompleteWord is a pure function.
package prompt
