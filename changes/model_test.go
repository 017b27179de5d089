package changes

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/tree"
)

var (
	configmaps = tree.Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Kind: "ConfigMap", Namespaced: true}
	t0         = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
)

// mf is a managedFields entry of manager (op "Update" unless it is "Apply"; sub its subresource) at second
// sec, owning fields (fieldsV1 JSON).
func mf(manager, op, sub string, sec int, fields string) metav1.ManagedFieldsEntry {
	tm := metav1.NewTime(t0.Add(time.Duration(sec) * time.Second))
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationType(op), Subresource: sub,
		Time: &tm, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

// obj is the metadata of configmap ns/name at rv with entries.
func obj(ns, name, rv string, entries ...metav1.ManagedFieldsEntry) *metav1.PartialObjectMetadata {
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv,
		ManagedFields: entries}}
}

const (
	dataFields   = `{"f:data":{".":{},"f:a":{}}}`
	labelFields  = `{"f:metadata":{"f:labels":{".":{},"f:x":{}}}}`
	createFields = `{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:annotations":{".":{},"f:n":{}}}}`
	statusFields = `{"f:status":{"f:phase":{}}}`
	specFields   = `{"f:spec":{"f:replicas":{}},"f:type":{}}`
)

func TestTopFields(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{dataFields, "data"},
		{labelFields, "metadata.labels"},
		{createFields, "data, metadata.annotations"},
		{specFields, "spec, type"},
		{`{"f:metadata":{"f:labels":{"f:x":{}},"f:finalizers":{".":{},"v:\"x\"":{}}},"f:spec":{}}`, "metadata.finalizers, metadata.labels, spec"},
		{``, ""},
		{`not json`, ""},
	} {
		if got := topFields([]byte(tc.raw)); got != tc.want {
			t.Errorf("topFields(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

// TestModelChanges: what each event becomes (op, manager, sure, fields), the initial list no change.
func TestModelChanges(t *testing.T) {
	create := obj("shop", "cm", "1", mf("kubectl-create", "Update", "", 0, createFields))
	for _, tc := range []struct {
		name   string
		events func(m *Model)
		want   []string // newest first: "op ns/name manager[?] [fields] rv"
	}{
		{"initial list is not a change", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create}, t0)
		}, nil},
		{"created after the list", func(m *Model) {
			m.List(0, nil, t0)
			m.Added(0, create, t0)
		}, []string{"created shop/cm kubectl-create [data, metadata.annotations] 1"}},
		{"patch by another manager", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create}, t0)
			m.Updated(0, obj("shop", "cm", "2", mf("kubectl-create", "Update", "", 0, createFields), mf("e2e-patcher", "Update", "", 5, dataFields)), t0)
		}, []string{"updated shop/cm e2e-patcher [data] 2"}},
		{"same manager writes again later", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{obj("shop", "cm", "1", mf("a", "Update", "", 0, dataFields), mf("b", "Update", "", 3, labelFields))}, t0)
			m.Updated(0, obj("shop", "cm", "2", mf("a", "Update", "", 9, dataFields), mf("b", "Update", "", 3, labelFields)), t0)
		}, []string{"updated shop/cm a [data] 2"}},
		{"entry that only lost fields did not write", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{obj("shop", "cm", "1", mf("a", "Update", "", 4, createFields))}, t0)
			m.Updated(0, obj("shop", "cm", "2", mf("a", "Update", "", 4, labelFields), mf("b", "Apply", "", 4, dataFields)), t0)
		}, []string{"updated shop/cm b [data] 2"}},
		{"status subresource", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create}, t0)
			m.Updated(0, obj("shop", "cm", "2", mf("kubectl-create", "Update", "", 0, createFields), mf("kubelet", "Update", "status", 7, statusFields)), t0)
		}, []string{"updated shop/cm kubelet/status [status] 2"}},
		{"no entry changed: newest, not sure when tied", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{obj("shop", "cm", "1", mf("a", "Update", "", 4, dataFields), mf("b", "Update", "", 4, labelFields))}, t0)
			m.Updated(0, obj("shop", "cm", "2", mf("a", "Update", "", 4, dataFields), mf("b", "Update", "", 4, labelFields)), t0)
		}, []string{"updated shop/cm a? [data] 2"}},
		{"same resourceVersion again is no change", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create}, t0)
			m.Updated(0, create, t0)
		}, nil},
		{"deleted names no manager", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create}, t0)
			m.Deleted(0, obj("shop", "cm", "3", mf("kubectl-create", "Update", "", 0, createFields)), t0)
		}, []string{"deleted shop/cm  [] 3"}},
		{"no managedFields", func(m *Model) {
			m.List(0, nil, t0)
			m.Added(0, obj("shop", "bare", "4"), t0)
		}, []string{"created shop/bare  [] 4"}},
		{"relist reports what differs", func(m *Model) {
			m.List(0, []*metav1.PartialObjectMetadata{create, obj("shop", "gone", "1"), obj("shop", "same", "1")}, t0)
			m.List(0, []*metav1.PartialObjectMetadata{obj("shop", "same", "1"), obj("shop", "new", "7", mf("x", "Update", "", 1, dataFields)),
				obj("shop", "cm", "8", mf("kubectl-create", "Update", "", 0, createFields), mf("e2e-patcher", "Update", "", 9, dataFields))}, t0)
		}, []string{"deleted shop/gone  [] ", "updated shop/cm e2e-patcher [data] 8", "created shop/new x [data] 7"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewModel([]tree.Kind{configmaps}, 10)
			tc.events(m)
			var got []string
			for _, c := range m.Changes() {
				manager := c.Manager
				if manager != "" && !c.Sure {
					manager += "?"
				}
				got = append(got, fmt.Sprintf("%s %s %s [%s] %s", c.Op, c.Key(), manager, c.Fields, c.RV))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("changes:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestModelBound: the ring keeps the latest changes, newest first, and counts them all.
func TestModelBound(t *testing.T) {
	m := NewModel([]tree.Kind{configmaps}, 3)
	m.List(0, nil, t0)
	for i := range 5 {
		m.Added(0, obj("shop", fmt.Sprintf("cm%d", i), fmt.Sprint(i+1)), t0.Add(time.Duration(i)*time.Second))
	}
	var names []string
	for _, c := range m.Changes() {
		names = append(names, c.Name)
	}
	if fmt.Sprint(names) != "[cm4 cm3 cm2]" {
		t.Errorf("kept %v, want the latest three newest first", names)
	}
	if st := m.Stats(); st.Kept != 3 || st.Capacity != 3 || st.Total != 5 || st.Objects != 5 {
		t.Errorf("stats %+v", st)
	}
	if of := m.Of(configmaps.GVR, "shop", "cm3"); len(of) != 1 || of[0].RV != "4" {
		t.Errorf("Of(cm3) = %+v", of)
	}
	if of := m.Of(configmaps.GVR, "shop", "cm0"); len(of) != 0 {
		t.Errorf("Of(cm0), dropped, = %+v", of)
	}
}
