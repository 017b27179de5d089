// Package theme is the UI's colors: kscope's own look, with what a k9s skin (config.Skin) sets over it. The
// views read their colors, tags and styles from a Theme (Navigator.Theme in ui), paint their primitives with
// Paint, and the YAML views color their lines with YAMLLine.
//
// It is a leaf under ui: it imports tview, tcell and kscope/config, never ui, so that the live table
// (ui/table), the app (ui) and the screens (ui/…) all use it. A Theme is not changed after New.
package theme
