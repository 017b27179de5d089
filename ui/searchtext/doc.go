// Package searchtext is the text of a view that can be searched (Text): a tview TextView whose every
// case-insensitive match of the search is highlighted in a numbered region, `n` moving to the next. The views
// of one object (ui/objectview) and of a Helm revision (ui/helm) show their text through it. It asks only
// ui.Navigator.
package searchtext
