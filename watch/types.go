package watch

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/spawn"
)

// Spec names what one view watches. It is a plain value; copy it freely.
type Spec struct {
	// GVR is the resource to list and watch.
	GVR schema.GroupVersionResource
	// Namespaced tells whether GVR is a namespaced resource.
	Namespaced bool
	// Namespace limits a namespaced resource to one namespace; "" means all namespaces.
	Namespace string
	// LabelSelector and FieldSelector are sent to the server as they are (kubectl's -l and --field-selector).
	LabelSelector string
	FieldSelector string
	// Columns, when set, are computed from the objects themselves (kubectl's custom columns): such a Spec is
	// watched by an ObjectSource, which shows these columns in place of the server's Table. The slice is
	// shared by copies of the Spec and must not be modified.
	Columns []ObjectColumn
	// Go starts the source's goroutines (nil: plain goroutines). kscope gives its supervisor's, so that a
	// panic on one stops the UI and restores the terminal instead of ending the process in raw mode.
	Go spawn.Func
}

// AllNamespaces tells whether the view spans every namespace (and so shows a NAMESPACE column).
func (s Spec) AllNamespaces() bool { return s.Namespaced && s.Namespace == "" }

// Column describes one column of the server's Table (metav1.TableColumnDefinition), in server order.
// In all-namespaces mode the first column is a synthetic NAMESPACE column, as in `kubectl get -A`.
type Column struct {
	Name        string
	Type        string // integer, number, string, boolean, date
	Format      string // name, date, …
	Description string
	// Priority > 0 marks a wide column (shown by `kubectl get -o wide` only).
	Priority int32
	// Age marks the column that shows the object's age; its cell is recomputed from Row.Created at draw time.
	Age bool
}

// Row is one object as a table row. Rows are immutable once published: a change produces a new Row.
//
// A one-namespace or cluster-scoped view first lists rows without their objects (much cheaper for the
// server): until their metadata is filled in, moments later, such rows have an empty ResourceVersion, UID and
// Labels, and Created is estimated from the server's Age cell (to the second, within its rounding). When such
// a view relists (after 410 Gone or an apiserver restart), a row whose cells changed has an empty
// ResourceVersion until the next fill but keeps the UID, Labels and Created it had.
type Row struct {
	// Key is the informer key: "namespace/name", or "name" for cluster-scoped objects.
	Key             string
	Namespace       string
	Name            string
	UID             types.UID
	ResourceVersion string
	Created         time.Time
	Labels          map[string]string
	// Cells holds one display string per Column (wide columns included), formatted as kubectl formats them.
	Cells []string

	// text is the cells lower-cased and joined by "\n" when they are all ASCII ("" otherwise, or for a Row
	// built elsewhere); Filter searches it in one pass.
	text string
}

// State is a Source's phase with the error that caused it, if any.
type State struct {
	Phase Phase
	// Err is the last error (Reconnecting) or the terminal error; nil otherwise.
	Err error
	// Message is the server's own words for Err (metav1.Status.Message) where it sent one, else Err.Error().
	Message string
	// Note is a line about work behind the rows that is failing without changing the phase, such as
	// "labels pending: <error>, retrying" while the metadata of a one-namespace view cannot be listed; "" when
	// there is none.
	Note string
	// Expected is, while the first list is still arriving (Phase Listing, its rows shown page by page), the
	// number of rows the server said it holds; 0 otherwise.
	Expected int
}

// ChangeSet lists the keys that changed since the previous call to Source.Changes.
type ChangeSet struct {
	Added   []string
	Updated []string
	// Deleted holds the last known row of each deleted object, so the UI can show it dimmed for a moment.
	Deleted []*Row
}

// Empty tells whether nothing changed.
func (c ChangeSet) Empty() bool { return len(c.Added)+len(c.Updated)+len(c.Deleted) == 0 }

// Query selects and orders rows for a snapshot.
type Query struct {
	// SortColumn indexes Source.Columns(); -1 keeps the natural order (namespace, then name).
	SortColumn int
	Descending bool
	// Filter keeps only matching rows; the zero Filter keeps all. It matches the cells as a table shows them:
	// the Age cell as the age at Now, recomputed from the creation time.
	Filter Filter
	// Now is the moment ages are computed at for the filter (the UI's clock); zero means time.Now().
	Now time.Time
	// Extra, when set, holds the view's own columns after the server's: SortColumn len(Columns())+i sorts by
	// Extra.Columns[i]. Nil for none.
	Extra *Extra
}

// Snapshot is an immutable, sorted and filtered list of rows at one moment; safe to share across goroutines.
type Snapshot struct {
	Rows []*Row
	// Total is the number of rows before filtering.
	Total int
}

// ObjectEvent is one state of a single watched object (see WatchObject): the full object as the server
// returns it, or its deletion, or an error that the stream reports before retrying or giving up.
type ObjectEvent struct {
	Object  *unstructured.Unstructured
	Deleted bool
	Err     error
}
