package ui

import (
	"context"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"kscope/tree"
)

// fakeOwners is a TreeSource whose objects the test sets. Safe for concurrent use.
type fakeOwners struct {
	mu               sync.Mutex
	objects          []tree.Object
	notify           chan struct{}
	started, stopped bool
}

func (f *fakeOwners) Start(context.Context) { f.mu.Lock(); f.started = true; f.mu.Unlock() }
func (f *fakeOwners) Stop()                 { f.mu.Lock(); f.stopped = true; f.mu.Unlock() }
func (f *fakeOwners) Notify() <-chan struct{} {
	return f.notify
}
func (f *fakeOwners) Progress() tree.Progress { return tree.Progress{} }
func (f *fakeOwners) Objects() []tree.Object {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.objects)
}

// set replaces the objects and signals.
func (f *fakeOwners) set(objects ...tree.Object) {
	f.mu.Lock()
	f.objects = objects
	f.mu.Unlock()
	f.notify <- struct{}{}
}

// job is a job object in shop owned by the owners' UIDs.
func job(name string, owners ...types.UID) tree.Object {
	o := tree.Object{Namespace: "shop", Name: name}
	for _, uid := range owners {
		o.Owners = append(o.Owners, metav1.OwnerReference{Kind: "CronJob", Name: "x", UID: uid})
	}
	return o
}
