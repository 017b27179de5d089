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
	v := objectVersion{obj: ev.Object, deleted: ev.Deleted, seen: now, size: approxSize(ev.Object.Object) + versionOverhead, seq: b.seq}
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

// versionOverhead is what keeping one version costs besides its object: the Unstructured, its place in
// the object's slice, in the arrival order and (for the first version) in the map of objects.
const versionOverhead = 160

// approxSize estimates the heap an unstructured value takes as a JSON decoder allocates it: each map's
// header and hash table (groups of eight slots of a string key and an interface value, grown to keep them at
// most 7/8 full), each key's bytes, a string's or a number's box, a list's box and backing array, rounded
// up as Go's allocator does. TestObjectBookBoundMeasuredOnTheHeap checks it against the heap.
func approxSize(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := mapBytes(len(x))
		for k, e := range x {
			n += allocBytes(len(k)) + approxSize(e)
		}
		return n
	case []any:
		n := allocBytes(24) + allocBytes(16*cap(x))
		for _, e := range x {
			n += approxSize(e)
		}
		return n
	case string:
		return allocBytes(16) + allocBytes(len(x))
	case bool, nil:
		return 0
	}
	return 8 // a boxed int64 or float64
}

// mapBytes is the heap a map[string]any of n entries takes: its header, one group of 8 slots while it is
// small, else a table of groups (a power of two of slots, at most 7/8 full) and its directory.
func mapBytes(n int) int {
	const header, group = 48, 8 + 8*32
	if n == 0 {
		return allocBytes(header)
	}
	if n <= 8 {
		return allocBytes(header) + allocBytes(group)
	}
	slots := 16
	for slots*7/8 < n {
		slots *= 2
	}
	return allocBytes(header) + allocBytes(slots/8*group) + allocBytes(48) + allocBytes(8)
}

// allocBytes rounds n up to the size of the block Go's allocator gives it (its size classes, roughly).
func allocBytes(n int) int {
	switch {
	case n == 0:
		return 0
	case n <= 32:
		return (n + 7) &^ 7
	case n <= 256:
		return (n + 15) &^ 15
	case n <= 1024:
		return (n + 63) &^ 63
	case n <= 32<<10:
		return (n + 255) &^ 255
	}
	return (n + 8191) &^ 8191
}
