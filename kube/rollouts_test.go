package kube

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	statefulSetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}
	daemonSetsGVR   = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "daemonsets"}
)

// owned returns an object controlled by uid, with annotations and fields.
func owned(name, uid string, annotations map[string]any, fields map[string]any) unstructured.Unstructured {
	obj := map[string]any{"metadata": map[string]any{"name": name, "annotations": annotations,
		"creationTimestamp": "2026-01-01T10:00:00Z",
		"ownerReferences":   []any{map[string]any{"apiVersion": "apps/v1", "kind": "X", "name": "w", "uid": uid, "controller": true}}}}
	for k, v := range fields {
		obj[k] = v
	}
	return unstructured.Unstructured{Object: obj}
}

// template is a pod template running image, with labels.
func template(image string, labels map[string]any) map[string]any {
	return map[string]any{"metadata": map[string]any{"labels": labels},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": image}}}}
}

// TestRevisionsOf: a deployment's revisions are its ReplicaSets' (revision annotation, change-cause,
// template without the hash label; the deployment's revision current), a statefulset's and daemonset's its
// ControllerRevisions' (updateRevision current; a daemonset's highest); others' are left out; oldest first.
func TestRevisionsOf(t *testing.T) {
	rs := func(name, uid, rev, cause, image string) unstructured.Unstructured {
		return owned(name, uid, map[string]any{revisionAnnotation: rev, changeCauseAnnotation: cause},
			map[string]any{"spec": map[string]any{"template": template(image, map[string]any{"app": "web", podTemplateHashLabel: name})}})
	}
	cr := func(name, uid string, rev int64, cause, image string) unstructured.Unstructured {
		tpl := template(image, map[string]any{"app": "web"})
		tpl["$patch"] = "replace"
		return owned(name, uid, map[string]any{changeCauseAnnotation: cause},
			map[string]any{"revision": rev, "data": map[string]any{"spec": map[string]any{"template": tpl}}})
	}
	deploy := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"uid": "u1",
		"annotations": map[string]any{revisionAnnotation: "2"}}}}
	sts := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"uid": "u1"},
		"status": map[string]any{"updateRevision": "web-a"}}}
	ds := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"uid": "u1"}}}
	type rev struct {
		n       int64
		cause   string
		image   string
		current bool
	}
	for _, tc := range []struct {
		name     string
		gvr      schema.GroupVersionResource
		workload *unstructured.Unstructured
		owned    []unstructured.Unstructured
		want     []rev
	}{
		{"deployment", deploymentsGVR, deploy, []unstructured.Unstructured{
			rs("web-b", "u1", "2", "to 1.26", "nginx:1.26"), rs("web-a", "u1", "1", "first", "nginx:1.25"),
			rs("other", "u2", "3", "", "x"), rs("web-new", "u1", "", "", "y")},
			[]rev{{1, "first", "nginx:1.25", false}, {2, "to 1.26", "nginx:1.26", true}}},
		{"statefulset", statefulSetsGVR, sts, []unstructured.Unstructured{
			cr("web-b", "u1", 2, "", "b:2"), cr("web-a", "u1", 1, "first", "a:1"), cr("x", "u2", 3, "", "x")},
			[]rev{{1, "first", "a:1", true}, {2, "", "b:2", false}}},
		{"daemonset", daemonSetsGVR, ds, []unstructured.Unstructured{
			cr("web-b", "u1", 2, "", "b:2"), cr("web-a", "u1", 1, "", "a:1")},
			[]rev{{1, "", "a:1", false}, {2, "", "b:2", true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []rev
			for _, r := range revisionsOf(tc.gvr, tc.workload, tc.owned) {
				cs, _, _ := unstructured.NestedSlice(r.Template, "spec", "containers")
				image := cs[0].(map[string]any)["image"].(string)
				got = append(got, rev{r.Number, r.ChangeCause, image, r.Current})
				if labels, _, _ := unstructured.NestedStringMap(r.Template, "metadata", "labels"); !reflect.DeepEqual(labels, map[string]string{"app": "web"}) {
					t.Errorf("revision %d labels %v, want app=web only", r.Number, labels)
				}
				if _, ok := r.Template["$patch"]; ok || r.Created.IsZero() {
					t.Errorf("revision %d: template %v, created %v", r.Number, r.Template, r.Created)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("revisions %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestUndoPatch: a deployment's undo replaces its template by the ReplicaSet's (hash label out) and its
// annotations by the ReplicaSet's, keeping the rollout's own; a ControllerRevision's data is sent as it is;
// each carries the workload's UID; an unknown revision and a paused deployment are errors.
func TestUndoPatch(t *testing.T) {
	deploy := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "web", "uid": "u1",
		"annotations": map[string]any{revisionAnnotation: "2", changeCauseAnnotation: "to 1.26", "team": "a"}}}}
	rs := owned("web-a", "u1", map[string]any{revisionAnnotation: "1", changeCauseAnnotation: "first"},
		map[string]any{"spec": map[string]any{"template": template("nginx:1.25", map[string]any{"app": "web", podTemplateHashLabel: "h"})}})
	got, err := undoPatch(deploymentsGVR, deploy, []unstructured.Unstructured{rs}, 1)
	if err != nil {
		t.Fatal(err)
	}
	wantTemplate := template("nginx:1.25", map[string]any{"app": "web"})
	wantTemplate["$patch"] = "replace"
	want := map[string]any{
		"metadata": map[string]any{"uid": "u1", "annotations": map[string]any{changeCauseAnnotation: "first", "team": nil}},
		"spec":     map[string]any{"template": wantTemplate},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("deployment patch\n%v\nwant\n%v", got, want)
	}
	if _, err := undoPatch(deploymentsGVR, deploy, []unstructured.Unstructured{rs}, 7); err == nil {
		t.Error("revision 7 (none): no error")
	}
	paused := deploy.DeepCopy()
	_ = unstructured.SetNestedField(paused.Object, true, "spec", "paused")
	if _, err := undoPatch(deploymentsGVR, paused, []unstructured.Unstructured{rs}, 1); err == nil {
		t.Error("paused deployment: no error")
	}

	ds := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "agent", "uid": "u1"}}}
	data := map[string]any{"spec": map[string]any{"template": map[string]any{"$patch": "replace"}}}
	cr := owned("agent-a", "u1", nil, map[string]any{"revision": int64(1), "data": data})
	got, err = undoPatch(daemonSetsGVR, ds, []unstructured.Unstructured{cr}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"metadata": map[string]any{"uid": "u1"}, "spec": data["spec"]}; !reflect.DeepEqual(got, want) {
		t.Errorf("daemonset patch %v, want %v", got, want)
	}
}
