// Package changes is the :changes screen: the live feed of the latest changes to the objects of every kind
// the user may list and watch, in the view's namespace (or those named; all namespaces: cluster-scoped kinds
// too), newest first: when, the kind, namespace and name, the op (created, updated, deleted), the field
// manager that made it and the top-level fields its managedFields entry holds, and the resourceVersion.
// The model (what is kept, how the manager is found, the bound) is package kscope/changes; the watches are
// cluster.ChangeFeed's. Enter opens the changed object's history, `/` filters the rows (a regular
// expression over every cell), and `:changes NS manager=NAME kind=KIND op=OP` keeps only the changes that
// match. `:changes @prod,@stg` (or `:changes` over a table of several clusters: ui.Session.Clusters) is
// one feed over those clusters, each its own part with its own connection, source and bound (clusters.go),
// their rows merged newest first with a CONTEXT cell; enter opens the history in the row's cluster. It
// implements ui.Screen and declares itself in Spec (its command, Tab's words for it and its keys), which the
// program registers in ui.Options.Registered; its command asks ui.Session, the view only ui.Navigator and
// the Feed it is opened with. UI goroutine only, but for its watch goroutine.
package changes
