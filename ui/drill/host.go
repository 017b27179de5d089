package drill

import (
	"context"
	"time"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/spawn"
	"kscope/ui/host"
	"kscope/watch"
)

// RequestTimeout bounds a drill-down's reads (the object, the target resource), as the verbs' requests.
const RequestTimeout = 15 * time.Second

// Host is what drilling down needs of the app. Its methods are called on the UI goroutine, but Go's
// function, which runs on a goroutine of its own.
type Host interface {
	host.Core
	// Pending counts requests under way (tests wait for them).
	Pending(delta int)
	// Spawn starts the goroutines of the sources drill builds (union.NewOwned).
	Spawn() spawn.Func
	// OpenTable pushes a live table of res over src titled title; keepNamespace keeps it in its namespace when
	// the user switches.
	OpenTable(res discovery.Resource, src cluster.RowSource, title string, keepNamespace bool)
	// OpenContainers pushes the containers screen of row, a pod of res; false when there is none.
	OpenContainers(res discovery.Resource, row *watch.Row) bool
	// OpenNamed resolves input (a resource's name) and opens its live table, or says why it cannot.
	OpenNamed(input string)
}

// request runs work off the UI goroutine within RequestTimeout, against the cluster of the moment, then then
// on the UI goroutine with its outcome, unless a context switch has replaced that cluster meanwhile.
func request[T any](h Host, work func(context.Context, cluster.Interface) (T, error), then func(T, error)) {
	conn := h.Cluster()
	h.Pending(1)
	h.Go(func() {
		ctx, cancel := context.WithTimeout(h.Context(), RequestTimeout)
		defer cancel()
		v, err := work(ctx, conn)
		h.Update(func() {
			defer h.Pending(-1)
			if h.Cluster() == conn { // else answered by the previous context's server
				then(v, err)
			}
		})
	})
}

// catalogEntry returns the catalog's own entry for def's resource (its verbs and names as the server serves
// them), or def when the catalog does not list it.
func catalogEntry(h Host, def discovery.Resource) discovery.Resource {
	for _, r := range h.Cluster().Catalog().Resources() {
		if r.GVR() == def.GVR() {
			return r
		}
	}
	return def
}
