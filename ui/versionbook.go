package ui

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/watch"
)

// The bounds of the full object versions kscope keeps (the YAML views' watches); the oldest goes first.
const (
	// objectVersionsPerObject is how many versions of one object are kept.
	objectVersionsPerObject = 50
	// objectVersionsBytes bounds the versions kept over all objects, by their estimated size in memory.
	objectVersionsBytes = 32 << 20
)

// objectVersion is one full version of an object as a YAML view's watch delivered it. obj is not modified.
type objectVersion struct {
	obj     *unstructured.Unstructured
	deleted bool
	seen    time.Time
	size    int
	seq     uint64
}

// bookRef names one recorded version, in the order they arrived.
type bookRef struct {
	key string
	seq uint64
}

// objectBook keeps the full versions of the objects the user watched in YAML views, from the moment each
// watch began, bounded per object (perObject) and in all (maxBytes, estimated); the oldest version goes
// first. Safe for concurrent use: the views' watch goroutines record, the UI goroutine reads.
type objectBook struct {
	mu        sync.Mutex
	perObject int
	maxBytes  int
	objects   map[string][]objectVersion
	order     []bookRef // arrival order; entries whose version went with its object's bound are skipped
	bytes     int
	live      int
	seq       uint64
}

// newObjectBook returns an empty book with the default bounds.
func newObjectBook() *objectBook {
	return &objectBook{perObject: objectVersionsPerObject, maxBytes: objectVersionsBytes, objects: map[string][]objectVersion{}}
}

// bookKey names an object of gvr.
func bookKey(gvr schema.GroupVersionResource, namespace, name string) string {
	return gvr.String() + "|" + namespace + "|" + name
}

// record keeps ev's object as a version of the object of gvr, seen at now, unless it is no object (an
// error) or the version already kept last (a re-read after a reconnect).
func (b *objectBook) record(gvr schema.GroupVersionResource, ev watch.ObjectEvent, now time.Time) {
	if ev.Err != nil || ev.Object == nil {
		return
	}
	key := bookKey(gvr, ev.Object.GetNamespace(), ev.Object.GetName())
	b.mu.Lock()
	defer b.mu.Unlock()
	vs := b.objects[key]
	if n := len(vs); n > 0 && vs[n-1].deleted == ev.Deleted &&
		vs[n-1].obj.GetResourceVersion() == ev.Object.GetResourceVersion() {
		return
	}
	b.seq++
	v := objectVersion{obj: ev.Object, deleted: ev.Deleted, seen: now, size: approxSize(ev.Object.Object), seq: b.seq}
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
func (b *objectBook) dropOldest() {
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
func (b *objectBook) compact() {
	kept := make([]bookRef, 0, b.live)
	for _, ref := range b.order {
		if vs := b.objects[ref.key]; len(vs) > 0 && ref.seq >= vs[0].seq {
			kept = append(kept, ref)
		}
	}
	b.order = kept
}

// versions returns the versions kept of the object of gvr, oldest first.
func (b *objectBook) versions(gvr schema.GroupVersionResource, namespace, name string) []objectVersion {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]objectVersion(nil), b.objects[bookKey(gvr, namespace, name)]...)
}

// stats returns how many versions are kept and their estimated size.
func (b *objectBook) stats() (versions, bytes int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.live, b.bytes
}

// reset forgets every version (another cluster's objects follow).
func (b *objectBook) reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.objects, b.order, b.bytes, b.live = map[string][]objectVersion{}, nil, 0, 0
}

// approxSize estimates the memory an unstructured value takes: its strings and a word or two per value.
func approxSize(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 48
		for k, e := range x {
			n += len(k) + 16 + approxSize(e)
		}
		return n
	case []any:
		n := 24
		for _, e := range x {
			n += approxSize(e)
		}
		return n
	case string:
		return len(x) + 16
	}
	return 16
}
