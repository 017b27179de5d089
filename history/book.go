package history

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/watch"
)

// The bounds of the full object versions kscope keeps (the YAML views' watches); the oldest goes first.
const (
	// VersionsPerObject is how many versions of one object are kept.
	VersionsPerObject = 50
	// VersionsBytes bounds the versions kept over all objects, by their estimated size in memory.
	VersionsBytes = 32 << 20
)

// Version is one full version of an object as a YAML view's watch delivered it. A plain value; Obj is
// shared and must not be modified.
type Version struct {
	// Obj is the object as the watch delivered it.
	Obj *unstructured.Unstructured
	// Deleted tells whether the watch delivered it deleted (its last state).
	Deleted bool
	// Seen is when the book recorded it.
	Seen time.Time
	size int    // estimated, as the bound counts it
	seq  uint64 // arrival order in the book
}

// bookRef names one recorded version, in the order they arrived.
type bookRef struct {
	key string
	seq uint64
}

// Book keeps the full versions of the objects the user watched in YAML views, from the moment each
// watch began, bounded per object (VersionsPerObject) and in all (VersionsBytes, estimated); the oldest
// version goes first. Safe for concurrent use: the views' watch goroutines record, the UI goroutine reads.
type Book struct {
	mu        sync.Mutex
	perObject int
	maxBytes  int
	objects   map[string][]Version
	order     []bookRef // arrival order; entries whose version went with its object's bound are skipped
	bytes     int
	live      int
	seq       uint64
}

// NewBook returns an empty book with the default bounds.
func NewBook() *Book {
	return &Book{perObject: VersionsPerObject, maxBytes: VersionsBytes, objects: map[string][]Version{}}
}

// bookKey names an object of gvr.
func bookKey(gvr schema.GroupVersionResource, namespace, name string) string {
	return gvr.String() + "|" + namespace + "|" + name
}

// Record keeps ev's object as a version of the object of gvr, seen at now, unless it is no object (an
// error) or the version already kept last (a re-read after a reconnect).
func (b *Book) Record(gvr schema.GroupVersionResource, ev watch.ObjectEvent, now time.Time) {
	if ev.Err != nil || ev.Object == nil {
		return
	}
	key := bookKey(gvr, ev.Object.GetNamespace(), ev.Object.GetName())
	b.mu.Lock()
	defer b.mu.Unlock()
	vs := b.objects[key]
	if n := len(vs); n > 0 && vs[n-1].Deleted == ev.Deleted &&
		vs[n-1].Obj.GetResourceVersion() == ev.Object.GetResourceVersion() {
		return
	}
	b.seq++
	v := Version{Obj: ev.Object, Deleted: ev.Deleted, Seen: now, size: approxSize(ev.Object.Object) + versionOverhead, seq: b.seq}
	vs = append(vs, v)
	b.order = append(b.order, bookRef{key: key, seq: v.seq})
	b.bytes += v.size
	b.live++
	if len(vs) > b.perObject {
		b.bytes -= vs[0].size
		b.live--
		vs = append(vs[:0:0], vs[1:]...)
	}
	b.objects[key] = vs
	for b.bytes > b.maxBytes && b.live > 1 {
		b.dropOldest()
	}
	if len(b.order) > 2*b.live+64 {
		b.compact()
	}
}

// dropOldest drops the oldest version kept; the caller holds b.mu.
func (b *Book) dropOldest() {
	for len(b.order) > 0 {
		ref := b.order[0]
		b.order = b.order[1:]
		vs := b.objects[ref.key]
		if len(vs) == 0 || vs[0].seq != ref.seq {
			continue // already gone with its object's bound
		}
		b.bytes -= vs[0].size
		b.live--
		if len(vs) == 1 {
			delete(b.objects, ref.key)
		} else {
			b.objects[ref.key] = append(vs[:0:0], vs[1:]...)
		}
		return
	}
}

// compact drops the order's entries of versions no longer kept; the caller holds b.mu.
func (b *Book) compact() {
	kept := make([]bookRef, 0, b.live)
	for _, ref := range b.order {
		if vs := b.objects[ref.key]; len(vs) > 0 && ref.seq >= vs[0].seq {
			kept = append(kept, ref)
		}
	}
	b.order = kept
}

// Versions returns the versions kept of the object of gvr, oldest first.
func (b *Book) Versions(gvr schema.GroupVersionResource, namespace, name string) []Version {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Version(nil), b.objects[bookKey(gvr, namespace, name)]...)
}

// Stats returns how many versions are kept and their estimated size.
func (b *Book) Stats() (versions, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.live, b.bytes
}

// Reset forgets every version (another cluster's objects follow).
func (b *Book) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.objects, b.order, b.bytes, b.live = map[string][]Version{}, nil, 0, 0
}
