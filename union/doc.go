// Package union builds one table's rows out of several row sources: one namespaced resource in several
// namespaces (`:pods shop,web`, Namespaces: a NAMESPACE cell first) and several kinds in one table
// (`:deploy,sts`, `:all`, Kinds: a KIND cell first, the kinds' own columns when they share them, else NAME,
// NAMESPACE and AGE). Each union is a watch.StaticSource fed by goroutines that follow its parts
// (watch.NewFedSource): the source's one watch.Lifecycle starts the parts and those goroutines with its Start,
// and its Stop stops them, then the parts, then releases the rows. Owned keeps the rows of one source that
// an owner owns, read from a metadata source beside it (a cronjob's jobs), on a Lifecycle of its own.
// ConnectRetrying is the one way a table of several clusters (Clusters), and the feed of changes over several
// clusters, connect to a cluster that does not answer yet: again and again, waiting longer each time.
//
// It knows sources only through SourceMaker (cluster.Sources satisfies it) and draws nothing; the views that
// show these tables live in ui.
package union

import (
	"kscope/cluster"
	"kscope/watch"
)

// SourceMaker builds (does not start) the live rows of one resource for spec, as cluster.Sources does. The
// unions call it on the goroutine that builds them.
type SourceMaker interface {
	NewSource(spec watch.Spec) (cluster.RowSource, error)
}
