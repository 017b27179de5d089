package changes

import (
	"context"

	"github.com/gdamore/tcell/v2"

	"kscope/changes"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/history"
	"kscope/ui"
	"kscope/ui/keymap"
	"kscope/watch"
)

// keys are the view's keys: its family of the key table (Spec.Keys). They act on the selected change.
var keys = struct{ History, Filter keymap.KeyDef }{
	History: keymap.NewKey("change history", keymap.Key(tcell.KeyEnter, "enter"),
		"the history of the changed object: the versions kscope keeps of it, else the changes the feed saw"),
	Filter: keymap.NewKey("filter", keymap.Char('/'),
		"show only the changes matching a regular expression (kind, name, manager, fields…; esc: all)"),
}

// Spec declares the view to the app (ui.Options.Registered): `:changes [@CTX,…] [NS[,NS…]] [key=value…]`
// opens it; Tab after it offers all, the namespaces and the contexts as @-words.
var Spec = ui.ScreenSpec{
	Keys: keymap.Family{Title: "Changes view (:changes)", Screen: "ui/changes", Defs: []keymap.KeyDef{keys.History, keys.Filter}},
	Commands: []ui.Command{{
		Names:      []string{"changes"},
		Usage:      "[@CTX,@CTX…] [NS,NS…] (the live feed of changes)",
		Args:       true,
		Candidates: candidates,
		Run:        open,
	}},
}

// Feed is what the view is opened with: the words typed after the command, the view's namespace and
// clusters, and the opener of a changed object's history. A plain value made for one view.
type Feed struct {
	// Args are the words after `:changes` ("shop,web", "manager=NAME"), as typed, but for the @-words.
	Args []string
	// Namespace is the view's namespace ("" = all): the feed's when Args name none.
	Namespace string
	// Contexts are the kubeconfig contexts of a feed over several clusters (ui.Session.Clusters); nil for
	// the view's cluster alone.
	Contexts []string
	// Connect connects to one of Contexts (ui.Session.Connect). It blocks: call it off the UI goroutine.
	Connect func(ctx context.Context, context string) (cluster.Interface, error)
	// History opens the history view of the object c changed, in conn's cluster (nil: the view's; name is
	// conn's context), with feed's changes (oldest first, read again each time) where no version is kept.
	// It tells whether it opened one (ui.Session.OpenHistory). UI goroutine; nil: none is opened.
	History func(conn cluster.Interface, name string, c changes.Change, feed func() []history.FeedChange) bool
}

// open is the command: the feed over the clusters s.Clusters reads from args (else the view's), pushed, or
// why it cannot open on the prompt line.
func open(s ui.Session, args []string) {
	contexts, rest, err := s.Clusters(args)
	if err != nil {
		s.Errorf("%s", err.Error())
		return
	}
	feed := Feed{Args: rest, Namespace: s.Namespace(), Contexts: contexts,
		History: func(conn cluster.Interface, name string, c changes.Change, f func() []history.FeedChange) bool {
			return s.OpenHistory(conn, name, resourceOf(c), rowOf(c), f)
		}}
	if len(contexts) > 0 {
		feed.Connect = s.Connect
	}
	v, err := New(s, feed)
	if err != nil {
		s.Errorf("%s", err.Error())
		return
	}
	s.Push(v)
}

// resourceOf is the resource of c's kind, as the history view names it.
func resourceOf(c changes.Change) discovery.Resource {
	return discovery.Resource{Group: c.Kind.GVR.Group, Version: c.Kind.GVR.Version, Name: c.Kind.GVR.Resource,
		Kind: c.Kind.Kind, Namespaced: c.Kind.Namespaced}
}

// rowOf is the row of the object c changed, at c's version.
func rowOf(c changes.Change) *watch.Row {
	return &watch.Row{Key: c.Key(), Namespace: c.Namespace, Name: c.Name, ResourceVersion: c.RV}
}

// candidates are what Tab offers after `:changes `: "all", the namespaces, and each context as an @-word
// ("@prod"; "@*" for every one).
func candidates(s ui.Session) []string {
	out := append([]string{"all"}, s.Namespaces()...)
	out = append(out, "@*")
	for _, name := range s.Cluster().Info().Contexts {
		out = append(out, "@"+name)
	}
	return out
}
