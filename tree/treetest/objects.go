// Package treetest has a metadata source for tests (a cluster.TreeSource) whose objects the test sets, and
// helpers to build them. It is imported by tests only.
package treetest

import (
	"context"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"kscope/tree"
)

// Objects is a tree source whose objects the test sets (Set). Start and Stop only record that they were
// called; Notify receives, coalesced, after each Set. Safe for concurrent use.
type Objects struct {
	mu               sync.Mutex
	objects          []tree.Object
	notify           chan struct{}
	started, stopped bool
}

// New returns a source holding objects.
func New(objects ...tree.Object) *Objects {
	return &Objects{objects: objects, notify: make(chan struct{}, 1)}
}

// Start records that it was called.
func (o *Objects) Start(context.Context) { o.mu.Lock(); o.started = true; o.mu.Unlock() }

// Stop records that it was called.
func (o *Objects) Stop() { o.mu.Lock(); o.stopped = true; o.mu.Unlock() }

// Started and Stopped tell whether Start and Stop were called.
func (o *Objects) Started() bool { o.mu.Lock(); defer o.mu.Unlock(); return o.started }
func (o *Objects) Stopped() bool { o.mu.Lock(); defer o.mu.Unlock(); return o.stopped }

// Notify receives after each Set (coalesced).
func (o *Objects) Notify() <-chan struct{} { return o.notify }

// Progress is none: the source lists nothing.
func (o *Objects) Progress() tree.Progress { return tree.Progress{} }

// Objects returns a copy of the objects set.
func (o *Objects) Objects() []tree.Object {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.objects)
}

// Set replaces the objects and signals Notify; it never blocks.
func (o *Objects) Set(objects ...tree.Object) {
	o.mu.Lock()
	o.objects = objects
	o.mu.Unlock()
	select {
	case o.notify <- struct{}{}:
	default:
	}
}

// Owned is an object namespace/name whose ownerReferences name owners (kind CronJob, name x).
func Owned(namespace, name string, owners ...types.UID) tree.Object {
	o := tree.Object{Namespace: namespace, Name: name}
	for _, uid := range owners {
		o.Owners = append(o.Owners, metav1.OwnerReference{Kind: "CronJob", Name: "x", UID: uid})
	}
	return o
}
