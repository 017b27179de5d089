// Package watch owns kscope's live row sets: for one GroupVersionResource, a namespace (or all) and selectors, a
// SharedIndexInformer over unstructured objects whose rows carry the server's own Table cells, its sync and
// error state, a coalesced change feed, and sorted, filtered snapshots for the UI. It never touches the UI.
package watch
