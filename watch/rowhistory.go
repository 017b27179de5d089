package watch

import "time"

// The bounds of the row versions a Source keeps (its history); the oldest version goes first.
const (
	// RowVersionsPerObject is how many versions of one row a Source keeps.
	RowVersionsPerObject = 50
	// RowVersionsTotal is how many row versions a Source keeps over all its rows.
	RowVersionsTotal = 5000
)

// RowVersion is one version of a row as a Source saw it. Row is immutable, as every Row.
type RowVersion struct {
	Row *Row
	// Seen is when the source received the version; zero for the version the row had before its first
	// recorded change (a row of the first list, seen when the view opened).
	Seen time.Time
}

// versionSlot is one kept version; newer is the slot of the same key's next newer version (-1: none) and
// chain the key's chain. A free slot has a nil row.
type versionSlot struct {
	row   *Row
	seen  int64 // Unix nanoseconds; 0 for a listed version
	newer int32
	chain *versionChain
}

// versionChain is one key's versions: the slots of its oldest and newest, and how many.
type versionChain struct {
	oldest, newest, n int32
}

// rowHistory keeps the versions of the rows a store replaced, bounded per key (perKey) and in all
// (total): one ring of slots, grown up to total and then reused oldest first, linked per key. Recording a
// version costs one map lookup and allocates nothing once the ring is grown, but a chain for a key's first
// version. The zero value is empty, with the default bounds. Not safe for concurrent use: the store's lock
// guards it.
type rowHistory struct {
	perKey, total int32
	ring          []versionSlot
	next          int32 // once the ring is full, the slot the next version takes
	keys          map[string]*versionChain
	now           func() time.Time
}

// add records that a row changed from old (nil for a row added or re-created) to r. The first change of a
// key also keeps old, as the version seen before it.
func (h *rowHistory) add(old, r *Row) {
	c := h.keys[r.Key]
	if c == nil {
		if h.keys == nil {
			h.keys = map[string]*versionChain{}
		}
		c = &versionChain{oldest: -1, newest: -1}
		h.keys[r.Key] = c
		if old != nil {
			h.push(c, old, 0)
		}
	}
	now := time.Now
	if h.now != nil {
		now = h.now
	}
	h.push(c, r, now().UnixNano())
}

// bounds returns the per-key and total bounds.
func (h *rowHistory) bounds() (perKey, total int32) {
	perKey, total = h.perKey, h.total
	if perKey <= 0 {
		perKey = RowVersionsPerObject
	}
	if total <= 0 {
		total = RowVersionsTotal
	}
	return perKey, total
}

// push keeps r as the newest version of its key, whose chain is c, dropping the key's oldest beyond perKey.
func (h *rowHistory) push(c *versionChain, r *Row, seen int64) {
	perKey, _ := h.bounds()
	slot := h.take()
	if c.n == 0 {
		h.keys[r.Key] = c // (take may have dropped c's last version, and c with it)
		c.oldest = slot
	} else {
		h.ring[c.newest].newer = slot
	}
	h.ring[slot] = versionSlot{row: r, seen: seen, newer: -1, chain: c}
	c.newest, c.n = slot, c.n+1
	if c.n > perKey {
		o := c.oldest
		c.oldest, c.n = h.ring[o].newer, c.n-1
		h.ring[o] = versionSlot{newer: -1}
	}
}

// take returns a slot for a new version: a new one while the ring grows, else the oldest, whose version (if
// it still holds one, the oldest of its key) is dropped, and its key's chain when that was its last.
func (h *rowHistory) take() int32 {
	_, total := h.bounds()
	if int32(len(h.ring)) < total {
		h.ring = append(h.ring, versionSlot{newer: -1})
		return int32(len(h.ring) - 1)
	}
	slot := h.next
	h.next = (h.next + 1) % total
	if v := h.ring[slot]; v.row != nil {
		c := v.chain
		c.oldest, c.n = v.newer, c.n-1
		if c.n == 0 {
			c.newest = -1
			delete(h.keys, v.row.Key)
		}
	}
	return slot
}

// versions returns key's versions, oldest first (nil for none).
func (h *rowHistory) versions(key string) []RowVersion {
	c := h.keys[key]
	if c == nil || c.n == 0 {
		return nil
	}
	out := make([]RowVersion, 0, c.n)
	for i := c.oldest; i >= 0 && len(out) < int(c.n); i = h.ring[i].newer {
		v := RowVersion{Row: h.ring[i].row}
		if s := h.ring[i].seen; s != 0 {
			v.Seen = time.Unix(0, s)
		}
		out = append(out, v)
	}
	return out
}

// len returns the number of versions kept.
func (h *rowHistory) len() int {
	n := 0
	for _, c := range h.keys {
		n += int(c.n)
	}
	return n
}

// reset drops every version.
func (h *rowHistory) reset() {
	h.ring, h.next, h.keys = nil, 0, nil
}
