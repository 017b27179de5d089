// Package tree finds an object's relationships for any kind: its owners up to the root and everything it owns,
// through the ownerReferences of every object of every listable kind. A Source lists and watches the metadata
// of each kind (k8s.io/client-go/metadata: PartialObjectMetadataList, one informer per kind, for as long as
// the tree is open), reporting how many kinds are listed, which the user may not list and which failed;
// Build lays the tree out from the objects it holds. Counter counts the requests and bytes a Source's client
// reads. The package never touches the UI.
package tree
