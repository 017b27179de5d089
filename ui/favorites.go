package ui

import (
	"fmt"
	"maps"
	"slices"

	"kscope/config"
	"kscope/ui/keymap"
)

// withFavorite is favs with ns added as k9s adds a favourite namespace: in front when it is not in yet
// (the last one dropped beyond config.MaxFavorites), else favs as they are (switching among favourites never
// reorders them). favs is not changed.
func withFavorite(favs []string, ns string) []string {
	if ns == "" || slices.Contains(favs, ns) {
		return favs
	}
	next := append([]string{ns}, favs...)
	return next[:min(len(next), config.MaxFavorites)]
}

// favorites is the favourite namespaces of the context the UI is attached to (none before it attaches).
func (a *App) favorites() []string {
	if a.cluster == nil {
		return nil
	}
	return a.favs[a.cluster.Info().Context]
}

// addFavorite adds ns to the current context's favourites (withFavorite).
func (a *App) addFavorite(ns string) {
	if a.cluster == nil {
		return
	}
	if a.favs == nil {
		a.favs = map[string][]string{}
	}
	ctx := a.cluster.Info().Context
	a.favs[ctx] = withFavorite(a.favs[ctx], ns)
}

// dropFavorite removes ns from the favourites of context ctx (a namespace the server does not have).
func (a *App) dropFavorite(ctx, ns string) {
	if favs := a.favs[ctx]; slices.Contains(favs, ns) {
		a.favs[ctx] = slices.DeleteFunc(slices.Clone(favs), func(f string) bool { return f == ns })
	}
}

// favoriteBindings are the keys 1 to 9 of a table: each switches to that favourite namespace.
func (a *App) favoriteBindings() []keymap.Binding {
	defs := keymap.Keys.Table.Favorites()
	keys := make([]keymap.Binding, len(defs))
	for i, d := range defs {
		keys[i] = d.Bind(func() {
			favs := a.favorites()
			if i >= len(favs) {
				a.Errorf("no favourite namespace %d: the header lists %d", i+1, len(favs))
				return
			}
			a.setNamespace(favs[i])
		})
	}
	return keys
}

// FavoriteNamespaces are the favourite namespaces of every context the session knows (those it started
// with, Options.Favorites, and those it added to), for the program to remember. Call it after Run returns.
func (a *App) FavoriteNamespaces() map[string][]string {
	out := make(map[string][]string, len(a.favs))
	for ctx, favs := range a.favs {
		out[ctx] = slices.Clone(favs)
	}
	return out
}

// favoritesLine is the header's list of the numbered namespaces: 0 for all, then the favourites.
func favoritesLine(favs []string) []string {
	line := []string{"0 all"}
	for i, ns := range favs {
		line = append(line, fmt.Sprintf("%d %s", i+1, ns))
	}
	return line
}

// cloneFavorites copies Options.Favorites, so that the session's changes never reach the caller's map.
func cloneFavorites(in map[string][]string) map[string][]string {
	out := maps.Clone(in)
	for ctx, favs := range out {
		out[ctx] = slices.Clone(favs)
	}
	return out
}
