// Package picker is kscope's start screen: every API resource the catalog knows, filtered as the user types,
// the ones that cannot be listed and watched dimmed with the reason; Enter opens the selected one's live
// table. It lives under package ui, which imports it and hosts it (Host: the prompt, the theme, the catalog,
// the opening of a table), and it never imports ui. Everything runs on the UI goroutine.
package picker
