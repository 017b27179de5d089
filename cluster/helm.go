package cluster

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// HelmTimeout bounds one Helm action: how long Helm waits for the release's hooks (helm's --timeout).
const HelmTimeout = 5 * time.Minute

// Helm is what Helm's own SDK does to a release in the cluster (its action package), through the
// connection's clients: a rollback and an uninstall, run as `helm rollback` and `helm uninstall` run them (the
// release's hooks are the cluster's Jobs; nothing runs on the user's machine, no chart is downloaded). The
// connection's read-only transport refuses their writes as every other. Implementations are safe for
// concurrent use; each method blocks for the action (Helm waits for the release's hooks, at most
// HelmTimeout), and ctx bounds only what is read before it starts.
type Helm interface {
	// HelmRollback rolls r back to revision (helm rollback NAME REVISION): a new revision with that one's
	// chart, values and manifest, applied. r.Latest is the precondition: when the release's latest revision
	// is another, nothing is written and the error is a Conflict.
	HelmRollback(ctx context.Context, r HelmRelease, revision int) error
	// HelmUninstall uninstalls r (helm uninstall, with keepHistory --keep-history): its objects deleted, its
	// revisions too unless kept (then marked uninstalled). It returns Helm's info line. r.Latest is the
	// precondition, as for HelmRollback.
	HelmUninstall(ctx context.Context, r HelmRelease, keepHistory bool) (info string, err error)
	// HelmUpgrade upgrades r with values as the release's user-supplied values (helm upgrade --reset-values
	// with the whole of them: what the user edited from the latest revision's), with the chart stored in r's
	// latest revision (its version unchanged, nothing downloaded). With dryRun Helm renders it with the
	// server (its lookups) and writes nothing; the result is the revision as rendered. No revision is pruned.
	// r.Latest is the precondition, as for HelmRollback.
	HelmUpgrade(ctx context.Context, r HelmRelease, values map[string]any, dryRun bool) (HelmUpgraded, error)
}

// HelmUpgraded is what an upgrade rendered: the new revision's number and manifest. A plain value.
type HelmUpgraded struct {
	Revision int
	Manifest string
}

// HelmRelease names a release and what the user saw of it. A plain value.
type HelmRelease struct {
	Namespace, Name string
	// Driver is where the release is stored: "secret" or "configmap".
	Driver string
	// Latest is the number of the latest revision the user saw: the precondition of a write.
	Latest int
}

// HelmStorage is what a connection may offer a releases table beside the Helm role: a reader of the objects
// Helm stores revisions in, without the connection's request rate (its readers' number bounds it), so that a
// table of a thousand releases reads each latest revision in seconds (5 requests a second would take minutes). Its
// reads are the connection's (read-only wrap included). Safe for concurrent use.
type HelmStorage interface {
	HelmStorage() ObjectReader
}

// ObjectReader reads one full object, as Objects.Get. Safe for concurrent use.
type ObjectReader interface {
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
}
