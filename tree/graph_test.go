package tree

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var (
	deployments  = Kind{GVR: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, Kind: "Deployment", Namespaced: true}
	replicasets  = Kind{GVR: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}, Kind: "ReplicaSet", Namespaced: true}
	pods         = Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Kind: "Pod", Namespaced: true}
	configmaps   = Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Kind: "ConfigMap", Namespaced: true}
	revisions    = Kind{GVR: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"}, Kind: "ControllerRevision", Namespaced: true}
	statefulsets = Kind{GVR: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}, Kind: "StatefulSet", Namespaced: true}
	widgets      = Kind{GVR: schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "clusterwidgets"}, Kind: "ClusterWidget"}
)

// obj is an object of k named name (its UID is the name) owned by owners ("name" or "name!" for the controller).
func obj(k Kind, name string, owners ...string) Object {
	o := Object{Kind: k, Name: name, UID: types.UID(name)}
	if k.Namespaced {
		o.Namespace = "ns"
	}
	for _, ow := range owners {
		ctrl := strings.HasSuffix(ow, "!")
		ow = strings.TrimSuffix(ow, "!")
		o.Owners = append(o.Owners, metav1.OwnerReference{APIVersion: "v1", Kind: "Owner", Name: ow, UID: types.UID(ow), Controller: &ctrl})
	}
	return o
}

// lines renders nodes as "prefix Kind/name [marks]".
func lines(nodes []Node) []string {
	var out []string
	for _, n := range nodes {
		s := n.Prefix + n.Object.Kind.Kind + "/" + n.Object.Name
		if n.Role == Focus {
			s += " *"
		}
		if n.Missing {
			s += " (missing)"
		}
		if n.Repeat {
			s += " (repeat)"
		}
		if len(n.OtherOwners) > 0 {
			s += " +" + strings.Join(n.OtherOwners, ",")
		}
		out = append(out, s)
	}
	return out
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name    string
		objects []Object
		focus   string
		want    []string
	}{
		{
			name: "deployment chain from the middle",
			objects: []Object{obj(pods, "web-1-b", "web-1!"), obj(pods, "web-1-a", "web-1!"), obj(replicasets, "web-1", "web!"),
				obj(deployments, "web"), obj(pods, "other")},
			focus: "web-1",
			want:  []string{"Deployment/web", "└─ ReplicaSet/web-1 *", "   ├─ Pod/web-1-a", "   └─ Pod/web-1-b"},
		},
		{
			name: "statefulset with pods and revisions, from the root",
			objects: []Object{obj(statefulsets, "db"), obj(pods, "db-0", "db!"), obj(revisions, "db-5f", "db!"),
				obj(configmaps, "db-cfg", "db-0")},
			focus: "db",
			want:  []string{"StatefulSet/db *", "├─ ControllerRevision/db-5f", "└─ Pod/db-0", "   └─ ConfigMap/db-cfg"},
		},
		{
			name:    "cluster-scoped owner of a namespaced object",
			objects: []Object{obj(configmaps, "cm", "big!"), obj(widgets, "big")},
			focus:   "cm",
			want:    []string{"ClusterWidget/big", "└─ ConfigMap/cm *"},
		},
		{
			name:    "orphan",
			objects: []Object{obj(configmaps, "alone"), obj(configmaps, "other")},
			focus:   "alone",
			want:    []string{"ConfigMap/alone *"},
		},
		{
			name:    "owner not listed",
			objects: []Object{obj(pods, "p", "gone!")},
			focus:   "p",
			want:    []string{"Owner/gone (missing)", "└─ Pod/p *"},
		},
		{
			name:    "owner cycle",
			objects: []Object{obj(configmaps, "a", "b"), obj(configmaps, "b", "a")},
			focus:   "a",
			want:    []string{"ConfigMap/a (repeat)", "└─ ConfigMap/b", "   └─ ConfigMap/a *", "      └─ ConfigMap/b (repeat)"},
		},
		{
			name:    "self owner",
			objects: []Object{obj(configmaps, "me", "me")},
			focus:   "me",
			want:    []string{"ConfigMap/me (repeat)", "└─ ConfigMap/me *", "   └─ ConfigMap/me (repeat)"},
		},
		{
			name:    "two owners: the controller is followed, the other named",
			objects: []Object{obj(pods, "p", "x", "y!"), obj(configmaps, "x"), obj(configmaps, "y")},
			focus:   "p",
			want:    []string{"ConfigMap/y", "└─ Pod/p * +Owner/x"},
		},
		{
			name: "diamond shows the shared child once",
			objects: []Object{obj(configmaps, "root"), obj(configmaps, "l", "root"), obj(configmaps, "r", "root"),
				obj(pods, "shared", "l", "r")},
			focus: "root",
			want:  []string{"ConfigMap/root *", "├─ ConfigMap/l", "│  └─ Pod/shared", "└─ ConfigMap/r", "   └─ Pod/shared (repeat)"},
		},
		{
			name:    "the same UID listed twice counts once",
			objects: []Object{obj(configmaps, "c"), obj(pods, "c")},
			focus:   "c",
			want:    []string{"ConfigMap/c *"},
		},
		{
			name:    "focus not listed",
			objects: []Object{obj(configmaps, "c")},
			focus:   "nope",
			want:    nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := lines(Build(tt.objects, types.UID(tt.focus)))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestBuildDepths(t *testing.T) {
	nodes := Build([]Object{obj(pods, "p", "rs!"), obj(replicasets, "rs", "d!"), obj(deployments, "d")}, "d")
	if len(nodes) != 3 || nodes[0].Role != Focus || nodes[1].Depth != 1 || nodes[2].Depth != 2 || nodes[2].Role != Descendant {
		t.Fatalf("nodes %+v", nodes)
	}
}
