package history

// versionOverhead is what keeping one version costs besides its object: the Unstructured, its place in
// the object's slice, in the arrival order and (for the first version) in the map of objects.
const versionOverhead = 160

// approxSize estimates the heap an unstructured value takes as a JSON decoder allocates it: each map's
// header and hash table (groups of eight slots of a string key and an interface value, grown to keep them at
// most 7/8 full), each key's bytes, a string's or a number's box, a list's box and backing array, rounded
// up as Go's allocator does. TestBookBoundMeasuredOnTheHeap checks it against the heap.
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
