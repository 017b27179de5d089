// Package kubeproto reads the Kubernetes API's protobuf encoding without generated code: the body envelope
// (the "k8s\x00" magic and a runtime.Unknown holding the object's kind and bytes), list bodies read as a
// stream (ReadList: each item's bytes are handed over one at a time from one reused buffer, so that a list of
// 200k objects is never held whole), the events of a watch stream (WatchReader), and the fields of a message
// held in memory (Next, Each), with the few meta/v1 messages every reader needs (TypeMeta's kind, ListMeta,
// map entries).
//
// It is a package of its own because several readers need it and none may import another: watch's metadata
// fill (PartialObjectMetadataList), health's reader of built-in objects with watch's HEALTH column over it,
// and kube's pod-resources informer (PodList and its watch stream). Each keeps only its own item reader. Field numbers are those of k8s.io/apimachinery's generated.proto (v0.37.2).
// It imports only apimachinery and protowire.
package kubeproto
