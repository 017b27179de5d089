// Package config finds and reads kscope's configuration files: $KSCOPE_CONFIG_DIR, else
// $XDG_CONFIG_HOME/kscope (~/.config/kscope). The files have k9s's formats, so a k9s user's files work
// unchanged; where kscope has no file of a kind, k9s's own ($K9S_CONFIG_DIR, else $XDG_CONFIG_HOME/k9s) is
// read, and Files says so. Files are parsed with sigs.k8s.io/yaml into typed structs; a file that cannot be
// read is reported as one Problem (its path, line where known, and what is wrong) and ignored, so that
// kscope starts anyway. Nothing here keeps state between calls; every function is safe for concurrent use.
package config
