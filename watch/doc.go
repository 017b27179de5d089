// Package watch owns kscope's live row sets: for one GroupVersionResource, a namespace (or all) and selectors, a
// client-go reflector over lean row objects that carry the server's own Table cells (writing them straight into
// the rows, with a reconnect backoff of its own: back within 5 s of the server), its sync and error state, a coalesced change feed, and sorted, filtered snapshots for the UI. It never touches the UI.
//
// How rows arrive: a ListWatch asks the server for Table rows (the cells `kubectl get` prints) and decodes them as
// a stream into rowObjects, which carry only what a row needs (managedFields and annotations are never decoded). An
// all-namespaces view lists with includeObject=Metadata (streamed as a watch-list when the server offers it); a
// one-namespace or cluster-scoped view lists with includeObject=None, keys rows by their name cell and fills in
// their metadata with a second list behind the first table (in pages: a Table with metadata first, then pairs of a
// None Table and a protobuf metadata list from the same continue token, joined by name); such a view's relist keeps
// the metadata already filled in and reports only rows whose cells or metadata changed. A view's first list comes
// in two parts: a first page of 250 rows shown at once, then the rest as the whole list not older than that page,
// which the server answers from its watch cache in every state (continue pages it may read from etcd);
// all-namespaces views ask for it as a pair, joined only when both halves are of one resourceVersion, else the
// rest comes in pages from the first page's continue token. Watches always carry metadata. Snapshots are cached per query and
// patched from a change log, so one change at 50k rows costs a binary search and a copy rather than a sort.
//
// A Source also keeps the versions of the rows that changed after its first list (Versions): the row each
// change replaced and the new one, in one ring of 5000 versions linked per row (50 a row), oldest dropped
// first; the rows are the ones published anyway, so a version costs a slot, not a copy.
//
// A Spec with Columns of its own (kubectl's custom columns, a views.yaml entry with JSONPath columns) is watched
// by an ObjectSource instead: a dynamicinformer SharedIndexInformer over the unstructured objects, whose
// transform keeps of each object only the fields its columns read (Fields, worked out from the JSONPath
// templates) and the metadata a Row holds; managedFields, annotations and the rest are dropped as each object
// arrives (the first list streams as a watch-list where the server offers it, so that the whole list is never
// held). Its rows are computed from the kept objects by the columns (ObjectColumn: a JSONPath, or any Go
// function over the object) and go through the same row store, change feed and snapshots as a Source's. Over
// a built-in kind an ObjectSource does without the informer: it lists and watches the objects in protobuf
// (protoListWatch) and turns each, as it is read, into its row, keeping nothing else of it (rowCodec). A
// table's HEALTH column (pods, workloads, jobs, claims, services, budgets …) computes its kstatus word from the
// few fields kstatus reads of that kind (health.ProtoKind, healthproto.go); custom columns decode each object
// into its Go type, zero what no column reads (pruner) and compute the cells from the rest converted to its
// JSON content: the dynamic informer's cells (columnsproto.go). Custom resources, which the server serves in
// JSON only, and columns computed from whole objects are read in JSON by the same ListWatch, each item of a
// list decoded and dropped as it arrives (jsonCodec, protojson.go): the whole list is never held, nor decoded
// more than once. (NewObjectSource alone, without the connection's config, still runs the informer: the
// reference the tests compare the other paths with.)
//
// A Source says when it has finished opening (Settled): its first list is complete and, in a view listed
// without objects, the metadata fill behind it too. What the opening allocated is garbage then; kscope gives it
// back to the system at that moment rather than leaving it to the runtime's slow return.
//
// Every source (Source, ObjectSource, StaticSource, and tree's) embeds one Lifecycle: started once and never
// after Stop, stopped once with its goroutines waited for, Done closed when they have returned, and a coalesced
// Notify; each source gives it only what it runs and what it releases (Hooks). A row source's phase (State)
// changes only through one state machine, nextPhase, fed by the informer's events; errors are classified by
// apierr, as discovery classifies them. StaticSource, for tests of code that reads
// rows, runs the same row store, change feed and snapshots over rows put by hand.
package watch
