// Package keymap is kscope's one table of keys (Keys, in table.go) and the Binding a view builds from it:
// a key, its name and description, and its action. Every view binds its keys with
// keymap.Keys.<Family>.<Key>.Bind(fn), never with a key literal; the help screen, keys.yaml's remaps
// (Names) and README.md's key tables (with the registered screens' families: cli's TestREADMEKeys, `go generate ./cli`) follow from the same table.
//
// It is a leaf: it imports tcell and nothing of kscope, so that the live table (ui/table), the app (ui) and
// the screens (ui/…) all use it. Nothing in it is written after init.
package keymap
