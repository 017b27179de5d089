// Package config finds and reads kscope's configuration files: $KSCOPE_CONFIG_DIR, else
// $XDG_CONFIG_HOME/kscope (~/.config/kscope). The files have k9s's formats, so a k9s user's files work
// unchanged; where kscope has no file of a kind, k9s's own ($K9S_CONFIG_DIR, else $XDG_CONFIG_HOME/k9s) is
// read, and Files says so. Files are parsed with sigs.k8s.io/yaml into typed structs; a file that cannot be
// read is reported as one Problem (its path, line where known, and what is wrong) and ignored, so that
// kscope starts anyway. Nothing here keeps state between calls; every function is safe for concurrent use.
//
// The files: aliases.yaml, hotkeys.yaml, plugins.yaml, views.yaml (k9s's); jumps.yaml (k9s 0.51's: what Enter
// opens from a resource's objects; k9s's file and kscope's are both read, kscope's rule for a source first;
// its templates hold field references only, {{.metadata.name}}, parsed when read: jumptemplate.go);
// config.yaml (k9s's, the fields kscope has a counterpart for: readOnly, screenDumpDir, defaultView,
// ui.enableMouse, ui.skin, logger.*); the
// per-context clusters/CLUSTER/CONTEXT/config.yaml (k9s keeps it under $XDG_DATA_HOME/k9s: readOnly, skin,
// namespace.active, view.active); skins/NAME.yaml (k9s's skin format); and keys.yaml, kscope's own (k9s has
// none), which rebinds kscope's keys by the names the help screen shows; and state.yaml, kscope's own, which it
// writes itself (state.go: where the session in each kubeconfig context ended, written atomically). A value of the wrong type is a
// Problem naming its line (found with a YAML node tree; the JSON decoding sigs.k8s.io/yaml does has lost it).
package config
