package tree

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Kind is one listable resource a tree lists: its GroupVersionResource, its kind and whether it is
// namespaced. A plain value.
type Kind struct {
	GVR        schema.GroupVersionResource
	Kind       string
	Namespaced bool
}

// Name is the kind's resource as kubectl names it: "pods", "replicasets.apps".
func (k Kind) Name() string {
	if k.GVR.Group == "" {
		return k.GVR.Resource
	}
	return k.GVR.Resource + "." + k.GVR.Group
}

// Object is the metadata of one listed object that a tree needs. A plain value; Owners must not be modified.
type Object struct {
	Kind            Kind
	Namespace, Name string
	UID             types.UID
	ResourceVersion string
	Created         time.Time
	Deleting        bool
	Owners          []metav1.OwnerReference
}

// Role is where a node stands relative to the object the tree is about.
type Role int

const (
	// Owner is an ancestor: the focus' owner, its owner's owner, up to the root.
	Owner Role = iota
	// Focus is the object the tree was opened on.
	Focus
	// Descendant is an object the focus owns, directly or through others.
	Descendant
)

// Node is one line of a tree: an object at a depth (0 is the root). A plain value.
type Node struct {
	Object Object
	Depth  int
	Role   Role
	// Missing is set for an owner that an ownerReference names but no list holds (deleted, or of a kind not
	// visible): Object then has only the reference's kind, name and UID, and Ref is that reference.
	Missing bool
	Ref     *metav1.OwnerReference
	// Repeat marks an object already shown above (an owner cycle, or an object owned twice in the subtree);
	// its children are not repeated.
	Repeat bool
	// OtherOwners are the owners of an ancestor or of the focus besides the one the tree follows up
	// ("Kind/name").
	OtherOwners []string
	// Prefix is the tree drawing before the node ("│  ├─ ").
	Prefix string
}

// Build lays out the tree of the object with UID focus among objects: its owners up to the root (following
// each object's controller reference, else its first owner reference), then the focus, then everything it
// owns, depth first, children ordered by kind, namespace and name. Cycles end at the first repeat. An object
// listed twice (the same UID under two resources) counts once, the first in objects' order. It returns nil
// when no object has UID focus. Build is pure.
func Build(objects []Object, focus types.UID) []Node {
	byUID := make(map[types.UID]*Object, len(objects))
	children := map[types.UID][]*Object{}
	for i := range objects {
		o := &objects[i]
		if _, dup := byUID[o.UID]; dup {
			continue
		}
		byUID[o.UID] = o
		for _, ref := range o.Owners {
			children[ref.UID] = append(children[ref.UID], o)
		}
	}
	f, ok := byUID[focus]
	if !ok {
		return nil
	}
	nodes := ancestors(byUID, f)
	seen := map[types.UID]bool{}
	for _, n := range nodes {
		seen[n.Object.UID] = true
	}
	depth := len(nodes)
	focusNode := Node{Object: *f, Depth: depth, Role: Focus, OtherOwners: otherOwners(f)}
	nodes = append(nodes, focusNode)
	seen[f.UID] = true
	nodes = descend(nodes, children, f, depth+1, seen)
	drawPrefixes(nodes)
	return nodes
}

// ancestors returns the owner chain of o, root first, each at its depth.
func ancestors(byUID map[types.UID]*Object, o *Object) []Node {
	var chain []Node
	visited := map[types.UID]bool{o.UID: true}
	for cur := o; ; {
		ref := primaryOwner(cur)
		if ref == nil {
			break
		}
		owner, ok := byUID[ref.UID]
		if !ok {
			chain = append(chain, missingNode(*ref, cur))
			break
		}
		if visited[owner.UID] {
			chain = append(chain, Node{Object: *owner, Role: Owner, Repeat: true})
			break
		}
		visited[owner.UID] = true
		chain = append(chain, Node{Object: *owner, Role: Owner, OtherOwners: otherOwners(owner)})
		cur = owner
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	for i := range chain {
		chain[i].Depth = i
	}
	return chain
}

// missingNode stands for the owner ref names that no list holds; of is the object that names it (an owner
// in another namespace cannot be: a namespaced owner is in its dependent's namespace).
func missingNode(ref metav1.OwnerReference, of *Object) Node {
	gv, _ := schema.ParseGroupVersion(ref.APIVersion)
	o := Object{Kind: Kind{GVR: gv.WithResource(""), Kind: ref.Kind}, Name: ref.Name, UID: ref.UID, Namespace: of.Namespace}
	r := ref
	return Node{Object: o, Role: Owner, Missing: true, Ref: &r}
}

// primaryOwner is the reference the tree follows up: the controller, else the first owner.
func primaryOwner(o *Object) *metav1.OwnerReference {
	for i := range o.Owners {
		if c := o.Owners[i].Controller; c != nil && *c {
			return &o.Owners[i]
		}
	}
	if len(o.Owners) > 0 {
		return &o.Owners[0]
	}
	return nil
}

// otherOwners names o's owners besides its primary one.
func otherOwners(o *Object) []string {
	p := primaryOwner(o)
	var out []string
	for i := range o.Owners {
		if p != nil && o.Owners[i].UID != p.UID {
			out = append(out, o.Owners[i].Kind+"/"+o.Owners[i].Name)
		}
	}
	return out
}

// descend appends the subtree under o, depth first.
func descend(nodes []Node, children map[types.UID][]*Object, o *Object, depth int, seen map[types.UID]bool) []Node {
	kids := append([]*Object(nil), children[o.UID]...)
	sort.Slice(kids, func(i, j int) bool { return less(kids[i], kids[j]) })
	for _, k := range kids {
		if seen[k.UID] {
			nodes = append(nodes, Node{Object: *k, Depth: depth, Role: Descendant, Repeat: true})
			continue
		}
		seen[k.UID] = true
		nodes = append(nodes, Node{Object: *k, Depth: depth, Role: Descendant})
		nodes = descend(nodes, children, k, depth+1, seen)
	}
	return nodes
}

func less(a, b *Object) bool {
	if a.Kind.Kind != b.Kind.Kind {
		return a.Kind.Kind < b.Kind.Kind
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	return a.Name < b.Name
}

// drawPrefixes sets each node's tree drawing. A node is the last of its siblings when no later node at its
// depth comes before a shallower one (one pass from the end); its drawing shows, for each level above it,
// whether that level's ancestor has siblings still to come.
func drawPrefixes(nodes []Node) {
	last := make([]bool, len(nodes))
	var seen []bool // seen[d]: a node at depth d comes later, before any shallower one
	for i := len(nodes) - 1; i >= 0; i-- {
		d := nodes[i].Depth
		for len(seen) <= d {
			seen = append(seen, false)
		}
		last[i] = !seen[d]
		seen[d] = true
		for j := d + 1; j < len(seen); j++ {
			seen[j] = false
		}
	}
	var open []bool // open[l]: the ancestor at depth l has later siblings
	for i := range nodes {
		d := nodes[i].Depth
		if len(open) > d {
			open = open[:d]
		}
		for len(open) < d {
			open = append(open, false)
		}
		open = append(open, !last[i])
		if d == 0 {
			continue
		}
		var b []byte
		for level := 1; level < d; level++ {
			if open[level] {
				b = append(b, "│  "...)
			} else {
				b = append(b, "   "...)
			}
		}
		if last[i] {
			b = append(b, "└─ "...)
		} else {
			b = append(b, "├─ "...)
		}
		nodes[i].Prefix = string(b)
	}
}
