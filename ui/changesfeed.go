package ui

import (
	"context"

	"kscope/changes"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/history"
	"kscope/watch"
)

// ChangesFeed is what ui hands the changes screen (TableScreens.Changes, `:changes`): the words typed after
// the command, the view's namespace and clusters, and the openers of a changed object's history. A plain
// value made for one screen; History and HistoryIn run on the UI goroutine.
type ChangesFeed struct {
	// Args are the words after `:changes` ("shop,web", "manager=NAME"), as typed, but for the @-words.
	Args []string
	// Namespace is the view's namespace ("" = all): the feed's when Args name none.
	Namespace string
	// Contexts are the kubeconfig contexts of a feed over several clusters: those the @-words name
	// (`:changes @prod,@stg`, `@*`), else those of the table on top when it shows several clusters; nil for
	// the view's cluster alone.
	Contexts []string
	// Connect connects to one of Contexts: the session's connection of that context (the one the tables of
	// several clusters use; the view's own for its context). It blocks: call it off the UI goroutine.
	Connect func(ctx context.Context, context string) (cluster.Interface, error)
	// History opens the history view (TableScreens.History) of the object c changed: the versions kscope
	// keeps of it, with feed's (its changes the screen keeps, oldest first, read again each time) where no
	// version is kept; nil when no history screen is registered.
	History func(c changes.Change, feed func() []history.FeedChange)
	// HistoryIn is History for an object of conn, the cluster of context name (one of Contexts, connected
	// by Connect): the history view acts on that cluster. Nil when no history screen is registered.
	HistoryIn func(conn cluster.Interface, name string, c changes.Change, feed func() []history.FeedChange)
}

// openChanges pushes the registered changes screen (`:changes [@CTX,…] [NS[,NS…]] [key=value…]`), or says
// why it cannot open.
func (a *App) openChanges(args []string) {
	contexts, rest, found, err := a.contextWords(args)
	if err != nil {
		a.errorf("%s", err.Error())
		return
	}
	if !found {
		contexts = a.viewContexts()
	}
	feed := ChangesFeed{Args: rest, Namespace: a.namespace, Contexts: contexts}
	if len(contexts) > 0 {
		feed.Connect = a.connectMember(a.cluster)
	}
	if a.opts.Screens.History != nil {
		feed.History = a.openChangeHistory
		feed.HistoryIn = func(conn cluster.Interface, name string, c changes.Change, f func() []history.FeedChange) {
			a.memberApp(conn, name).openChangeHistory(c, f)
		}
	}
	s, err := a.opts.Screens.Changes(a, feed)
	if err != nil {
		a.errorf("%s", err.Error())
		return
	}
	a.push(s)
}

// viewContexts are the contexts of the table on top when it shows several clusters (its source tells its
// Contexts, as union.Clusters does); nil otherwise.
func (a *App) viewContexts() []string {
	t, ok := a.top().(interface{ Source() cluster.RowSource })
	if !ok {
		return nil
	}
	if s, ok := t.Source().(interface{ Contexts() []string }); ok {
		return s.Contexts()
	}
	return nil
}

// openChangeHistory pushes the history view of the object c changed: the app's book and open tables'
// versions of it (historyOf), with the feed's changes where neither has that version.
func (a *App) openChangeHistory(c changes.Change, feed func() []history.FeedChange) {
	res := discovery.Resource{Group: c.Kind.GVR.Group, Version: c.Kind.GVR.Version, Name: c.Kind.GVR.Resource,
		Kind: c.Kind.Kind, Namespaced: c.Kind.Namespaced}
	row := &watch.Row{Key: c.Key(), Namespace: c.Namespace, Name: c.Name, ResourceVersion: c.RV}
	a.push(a.opts.Screens.History(a, row, func() []history.Entry {
		return history.WithFeed(a.historyOf(res, row), feed())
	}))
}

// changesCandidates are what Tab offers after `:changes `: the namespaces, "all", and each context as an
// @-word ("@prod"; "@*" for every one).
func (a *App) changesCandidates() []string {
	out := append([]string{"all"}, a.namespaces.names()...)
	out = append(out, "@*")
	for _, name := range a.cluster.Info().Contexts {
		out = append(out, "@"+name)
	}
	return out
}
