// Package pluginvars is what a plugin or hotkey command is given of the row it runs on: its variables
// ($NAME, $NAMESPACE, $COL-STATUS…) exported into its environment under k9s's names and shell-readable ones
// (Environ), and substituted into its arguments only when no shell could read the value as code
// (Substitute: text from the cluster is data, never code; a value that is not inert refuses the run with an
// UnsafeValueError naming the variable).
//
// It is pure and links only the standard library, so that its fuzz target (FuzzPluginSubstitute, whose
// seeds every `make test` runs) explores fast. Every function is safe for concurrent use.
package pluginvars
