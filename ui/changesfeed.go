package ui

import (
	"kscope/changes"
	"kscope/discovery"
	"kscope/history"
	"kscope/watch"
)

// ChangesFeed is what ui hands the changes screen (TableScreens.Changes, `:changes`): the words typed after
// the command, the view's namespace, and the opener of a changed object's history. A plain value made for
// one screen; History runs on the UI goroutine.
type ChangesFeed struct {
	// Args are the words after `:changes` ("shop,web", "manager=NAME"), as typed.
	Args []string
	// Namespace is the view's namespace ("" = all): the feed's when Args name none.
	Namespace string
	// History opens the history view (TableScreens.History) of the object c changed: the versions kscope
	// keeps of it, with feed's (its changes the screen keeps, oldest first, read again each time) where no
	// version is kept; nil when no history screen is registered.
	History func(c changes.Change, feed func() []history.FeedChange)
}

// openChanges pushes the registered changes screen (`:changes [NS[,NS…]] [key=value…]`), or says why it
// cannot open.
func (a *App) openChanges(args []string) {
	feed := ChangesFeed{Args: args, Namespace: a.namespace}
	if a.opts.Screens.History != nil {
		feed.History = a.openChangeHistory
	}
	s, err := a.opts.Screens.Changes(a, feed)
	if err != nil {
		a.errorf("%s", err.Error())
		return
	}
	a.push(s)
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
