package apply

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/history"
)

// fakeConn is a cluster of stored objects: Apply answers the stored object with the applied object's
// data and labels over it (a conflict where owners say another manager owns a data key with another
// value, unless forced), and stores it unless it is a dry run. The other methods of cluster.Interface
// are not served.
type fakeConn struct {
	cluster.Interface
	objects map[string]*unstructured.Unstructured // by namespace/name
	owners  map[string]string                     // name/data key → its manager
	denied  map[string]bool                       // verbs not permitted
	calls   []string
}

func (c *fakeConn) Get(_ context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	if o, ok := c.objects[ns+"/"+name]; ok {
		return o.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
}

func (c *fakeConn) Can(_ context.Context, q cluster.AccessQuery) (cluster.AccessAnswer, error) {
	c.calls = append(c.calls, "can "+q.Verb+" "+q.Name)
	return cluster.AccessAnswer{Allowed: !c.denied[q.Verb], Reason: "the tests' RBAC"}, nil
}

func (c *fakeConn) Apply(_ context.Context, gvr schema.GroupVersionResource, ns string, obj *unstructured.Unstructured, opts cluster.ApplyOptions) (*unstructured.Unstructured, error) {
	c.calls = append(c.calls, fmt.Sprintf("apply %s/%s dry=%v force=%v rv=%s", ns, obj.GetName(), opts.DryRun, opts.Force, obj.GetResourceVersion()))
	out := obj.DeepCopy()
	if old, ok := c.objects[ns+"/"+obj.GetName()]; ok {
		if rv := obj.GetResourceVersion(); rv != "" && rv != old.GetResourceVersion() {
			return nil, apierrors.NewConflict(gvr.GroupResource(), obj.GetName(), fmt.Errorf("the object has been modified"))
		}
		var causes []metav1.StatusCause
		for k, v := range obj.Object["data"].(map[string]any) {
			if m, owned := c.owners[obj.GetName()+"/"+k]; owned && !opts.Force && old.Object["data"].(map[string]any)[k] != v {
				causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Field: ".data." + k,
					Message: fmt.Sprintf("conflict with %q using v1", m)})
			}
		}
		if len(causes) > 0 {
			return nil, apierrors.FromObject(&metav1.Status{Status: metav1.StatusFailure, Code: http.StatusConflict,
				Reason: metav1.StatusReasonConflict, Details: &metav1.StatusDetails{Causes: causes}})
		}
		out = old.DeepCopy()
		out.Object["data"] = obj.Object["data"]
	}
	out.SetManagedFields([]metav1.ManagedFieldsEntry{{Manager: "kscope", Operation: metav1.ManagedFieldsOperationApply}})
	out.SetResourceVersion(fmt.Sprint(len(c.calls)))
	if !opts.DryRun {
		c.objects[ns+"/"+obj.GetName()] = out.DeepCopy()
	}
	return out, nil
}

func configMap(name, kind string, data map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": kind,
		"metadata": map[string]any{"name": name, "namespace": "shop", "resourceVersion": "7", "generation": int64(3),
			"managedFields": []any{map[string]any{"manager": "other", "operation": "Apply"}}},
		"data": data}}
}

func itemOf(obj *unstructured.Unstructured) Item {
	o := obj.DeepCopy()
	unstructured.RemoveNestedField(o.Object, "metadata", "resourceVersion")
	unstructured.RemoveNestedField(o.Object, "metadata", "managedFields")
	unstructured.RemoveNestedField(o.Object, "metadata", "generation")
	res := catalog[0]
	if obj.GetKind() == "Secret" {
		res.Name, res.Kind = "secrets", "Secret"
	}
	return Item{Res: res, GVR: res.GVR(), Obj: o, Index: 1}
}

// diffText is a result's changed lines ("+ x", "- x").
func diffText(lines []history.FoldedLine) []string {
	var out []string
	for _, l := range lines {
		switch {
		case l.Fold > 0:
		case l.Op == history.DiffAdded:
			out = append(out, "+ "+l.Text)
		case l.Op == history.DiffRemoved:
			out = append(out, "- "+l.Text)
		}
	}
	return out
}

func TestPlan(t *testing.T) {
	live := map[string]*unstructured.Unstructured{
		"shop/old":   configMap("old", "ConfigMap", map[string]any{"color": "blue"}),
		"shop/same":  configMap("same", "ConfigMap", map[string]any{"k": "v"}),
		"shop/owned": configMap("owned", "ConfigMap", map[string]any{"color": "blue"}),
		"shop/creds": configMap("creds", "Secret", map[string]any{"a": "c2VjcmV0", "b": "b2xk"}),
	}
	tests := []struct {
		name      string
		item      *unstructured.Unstructured
		force     bool
		denied    string
		state     State
		diff      []string // the changed lines
		conflicts []apierr.FieldConflict
		err       string
		asked     string
	}{
		{name: "create", item: configMap("fresh", "ConfigMap", map[string]any{"k": "v"}), state: Create,
			diff:  []string{"+ apiVersion: v1", "+ data:", "+   k: v", "+ kind: ConfigMap", "+ metadata:", "+   name: fresh", "+   namespace: shop"},
			asked: "can create "},
		{name: "change (generation, resourceVersion and managedFields not compared)", item: configMap("old", "ConfigMap",
			map[string]any{"color": "green"}), state: Change, diff: []string{"-   color: blue", "+   color: green"}, asked: "can patch old"},
		{name: "unchanged", item: configMap("same", "ConfigMap", map[string]any{"k": "v"}), state: Unchanged, asked: "can patch same"},
		{name: "conflict", item: configMap("owned", "ConfigMap", map[string]any{"color": "red"}), state: Conflict,
			conflicts: []apierr.FieldConflict{{Field: ".data.color", Manager: "other"}}},
		{name: "forced", item: configMap("owned", "ConfigMap", map[string]any{"color": "red"}), force: true, state: Change,
			diff: []string{"-   color: blue", "+   color: red"}},
		{name: "a secret's values masked", item: configMap("creds", "Secret", map[string]any{"a": "bmV3", "b": "b2xk", "c": "YWRkZWQ="}),
			state: Change, diff: []string{"-   a: '*** (before)'", "+   a: '*** (after)'", "+   c: '***'"}},
		{name: "create not permitted", item: configMap("fresh", "ConfigMap", map[string]any{"k": "v"}), denied: "create",
			err: "configmaps shop/fresh: not permitted: you may not create it (the tests' RBAC)"},
		{name: "patch not permitted", item: configMap("old", "ConfigMap", map[string]any{"k": "v"}), denied: "patch",
			err: "configmaps shop/old: not permitted: you may not patch it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeConn{objects: map[string]*unstructured.Unstructured{}, owners: map[string]string{"owned/color": "other"},
				denied: map[string]bool{tt.denied: true}}
			for k, o := range live {
				c.objects[k] = o.DeepCopy()
			}
			it := itemOf(tt.item)
			if tt.item.GetKind() == "Secret" {
				it.GVR.Resource = "secrets"
			}
			rs, err := Plan(context.Background(), c, []Item{it}, tt.force)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				if slices.ContainsFunc(c.calls, func(s string) bool { return strings.HasPrefix(s, "apply") }) {
					t.Errorf("dry-run sent though not permitted: %q", c.calls)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := rs[0]
			if r.State != tt.state {
				t.Errorf("state %v, want %v", r.State, tt.state)
			}
			if got := diffText(r.Diff); !reflect.DeepEqual(got, tt.diff) && !(len(got) == 0 && len(tt.diff) == 0) {
				t.Errorf("diff %q, want %q", got, tt.diff)
			}
			if !reflect.DeepEqual(r.Conflicts, tt.conflicts) {
				t.Errorf("conflicts %v, want %v", r.Conflicts, tt.conflicts)
			}
			if tt.asked != "" && (len(c.calls) == 0 || c.calls[0] != tt.asked) {
				t.Errorf("first call %q, want the access question %q", c.calls, tt.asked)
			}
			if got := fmt.Sprint(c.objects["shop/"+tt.item.GetName()]); got != fmt.Sprint(live["shop/"+tt.item.GetName()]) {
				t.Errorf("the dry run stored %s", got)
			}
		})
	}
}

// TestApplyAll: the apply carries the resourceVersion the dry run read (changed since: not applied), says
// what each object became, stops at the first refusal naming the managers in conflict.
func TestApplyAll(t *testing.T) {
	c := &fakeConn{objects: map[string]*unstructured.Unstructured{"shop/old": configMap("old", "ConfigMap", map[string]any{"color": "blue"})},
		owners: map[string]string{"old/color": "other"}}
	items := []Item{itemOf(configMap("fresh", "ConfigMap", map[string]any{"k": "v"})),
		itemOf(configMap("old", "ConfigMap", map[string]any{"color": "blue", "size": "big"}))}
	rs, err := Plan(context.Background(), c, items, false)
	if err != nil {
		t.Fatal(err)
	}
	done, err := ApplyAll(context.Background(), c, rs, false)
	if err != nil || !reflect.DeepEqual(done, []string{"created configmaps shop/fresh", "configured configmaps shop/old"}) {
		t.Fatalf("ApplyAll = %q, %v", done, err)
	}
	if !slices.Contains(c.calls, "apply shop/old dry=false force=false rv=7") {
		t.Errorf("the apply of old did not carry the resourceVersion read: %q", c.calls)
	}
	// changed since the dry run
	rs, _ = Plan(context.Background(), c, items[1:], false)
	c.objects["shop/old"].SetResourceVersion("99")
	if _, err := ApplyAll(context.Background(), c, rs, false); err == nil || !strings.Contains(err.Error(), "changed since the dry run") {
		t.Errorf("an object changed since the dry run: %v", err)
	}
	// a conflict at the apply names the manager
	c.objects["shop/old"] = configMap("old", "ConfigMap", map[string]any{"color": "blue"})
	rs = []Result{{Item: itemOf(configMap("old", "ConfigMap", map[string]any{"color": "red"})), Live: c.objects["shop/old"], State: Change}}
	if _, err := ApplyAll(context.Background(), c, rs, false); err == nil || err.Error() != `configmaps shop/old: conflict: .data.color is owned by "other"` {
		t.Errorf("a conflict at the apply: %v", err)
	}
}

func TestTemplate(t *testing.T) {
	obj := configMap("web", "ConfigMap", map[string]any{"k": "v"})
	obj.SetUID("u")
	obj.SetOwnerReferences([]metav1.OwnerReference{{Name: "owner"}})
	obj.SetCreationTimestamp(metav1.Now())
	obj.SetLabels(map[string]string{"app": "web"})
	obj.Object["status"] = map[string]any{"phase": "x"}
	got := Template(obj).Object
	want := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"},
		"metadata": map[string]any{"name": "web", "namespace": "shop", "labels": map[string]any{"app": "web"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Template = %v, want %v", got, want)
	}
	if obj.GetUID() != "u" {
		t.Error("Template changed the object")
	}
}
