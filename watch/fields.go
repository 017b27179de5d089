package watch

// Fields is a set of paths into an object (its JSON content), as a tree: the fields an ObjectSource keeps of
// each object, because a column reads them. A node that is whole keeps everything below it; a node's any child
// stands for every key of a map (a JSONPath wildcard). Lists are transparent: a path through a list applies to
// each of its elements. The zero value keeps nothing. A Fields is built once, then only read: it is safe for
// concurrent reads.
type Fields struct {
	whole    bool
	children map[string]*Fields
	any      *Fields
}

// Add adds the path (field names from the object's root) and returns the node at its end, kept whole when
// nothing is added below it; Add on that node extends the path.
func (f *Fields) Add(path ...string) *Fields {
	n := f
	for _, name := range path {
		n = n.child(name)
	}
	return n
}

// Whole marks the node to keep all it holds.
func (f *Fields) Whole() { f.whole = true }

// child returns the node for key name, creating it.
func (f *Fields) child(name string) *Fields {
	if f.children == nil {
		f.children = map[string]*Fields{}
	}
	c := f.children[name]
	if c == nil {
		c = &Fields{}
		f.children[name] = c
	}
	return c
}

// anyChild returns the node for every key (a wildcard), creating it.
func (f *Fields) anyChild() *Fields {
	if f.any == nil {
		f.any = &Fields{}
	}
	return f.any
}

// leaf tells whether the node keeps its value whole: marked so, or nothing was added below it.
func (f *Fields) leaf() bool { return f.whole || (len(f.children) == 0 && f.any == nil) }

// Merge adds every path of o to f.
func (f *Fields) Merge(o *Fields) {
	if o == nil {
		return
	}
	f.whole = f.whole || o.whole
	for name, c := range o.children {
		f.child(name).Merge(c)
	}
	if o.any != nil {
		f.anyChild().Merge(o.any)
	}
}

// Keep returns a copy of obj holding only the fields of f (f's root stands for obj itself). Values kept whole
// are shared with obj, not copied; obj is not modified. A field f names that obj lacks stays absent, and a
// scalar where f expects a map or a list is kept as it is, so that a JSONPath over the copy finds what it finds
// over obj.
func (f *Fields) Keep(obj map[string]any) map[string]any {
	if f.leaf() {
		return obj
	}
	return f.keepMap(obj)
}

func (f *Fields) keepMap(m map[string]any) map[string]any {
	out := make(map[string]any, min(len(m), len(f.children)+1))
	if f.any != nil {
		for k, v := range m {
			sub := f.any
			if c := f.children[k]; c != nil {
				sub = mergedFields(sub, c)
			}
			out[k] = sub.keepValue(v)
		}
		return out
	}
	for k, c := range f.children {
		if v, ok := m[k]; ok {
			out[k] = c.keepValue(v)
		}
	}
	return out
}

// keepValue keeps what f names of v: all of it at a leaf, the named fields of a map, each element of a list.
func (f *Fields) keepValue(v any) any {
	if f.leaf() {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		return f.keepMap(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = f.keepValue(e)
		}
		return out
	}
	return v
}

// mergedFields returns a new node with the paths of a and b.
func mergedFields(a, b *Fields) *Fields {
	m := &Fields{}
	m.Merge(a)
	m.Merge(b)
	return m
}
