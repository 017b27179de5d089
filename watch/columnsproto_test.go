package watch

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// columnExprs are JSONPath columns of every shape: fields, lists, filters, wildcards, unions, maps, values
// with their own JSON encoding (times, quantities, int-or-strings), empty structs, absent fields, and the
// kind and apiVersion a list's items do not carry.
var columnExprs = []string{
	"{.metadata.name}", "{.kind}", "{.apiVersion}", "{.metadata.creationTimestamp}", "{.metadata.labels}",
	"{.metadata.labels.app}", "{.metadata.generation}", "{.metadata.deletionTimestamp}", "{.metadata.finalizers}",
	"{.metadata.annotations}", "{.metadata.ownerReferences[*].name}", "{.metadata.managedFields[0].manager}",
	"{.metadata.creationTimestamp.Time}", "{.metadata}",
	"{.spec.containers[*].image}", "{.spec.containers[0].resources}", "{.spec.containers[0].resources.requests.cpu}",
	"{.spec.containers[*].ports[*].containerPort}", "{.spec.securityContext}", "{.spec.securityContext.runAsUser}",
	"{.spec.nodeName}", "{.spec}", "{.spec.*}", "{.spec.containers[*]['name','image']}", "{..image}",
	"{.status.phase}", `{.status.conditions[?(@.type=="Ready")].status}`, "{.status.conditions[*].type}",
	"{.status.containerStatuses[*].state}", "{.status.containerStatuses[0].state.waiting.reason}",
	"{.status.observedGeneration}", "{.status}", "{.spec.replicas}", "{.spec.template.spec.containers[*].image}",
	"{.spec.strategy}", "{.spec.ports[*].targetPort}", "{.spec.ports[0].port}", "{.spec.clusterIP}",
	"{.spec.selector}", "{.status.readyReplicas}", "{.nothing.here}", "{.spec.volumes[*].configMap.name}",
}

// columnObjects are objects of three kinds with much set: healthPods, a deployment and a service.
func columnObjects() []runtime.Object {
	var objs []runtime.Object
	for _, p := range healthPods() {
		p.Annotations = map[string]string{"note": "a"}
		p.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate,
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:metadata":{}}`)}}}
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u-rs"}}
		p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}
		p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}}
		p.Spec.Volumes = []corev1.Volume{{Name: "conf", VolumeSource: corev1.VolumeSource{ // (inline in JSON)
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "web-conf"}}}}}
		objs = append(objs, p)
	}
	replicas, user := int32(3), int64(1000)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Generation: 4},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{SecurityContext: &corev1.PodSecurityContext{RunAsUser: &user},
				Containers: []corev1.Container{{Name: "app", Image: "nginx:1"}, {Name: "side", Image: "envoy"}}}}},
		Status: appsv1.DeploymentStatus{ReadyReplicas: 2, ObservedGeneration: 4}}
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.7", Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromString("http")}, {Port: 443, TargetPort: intstr.FromInt32(8443)}}}}
	return append(objs, d, s)
}

// TestColumnsCodecCellsAreTheJSONPaths: for every column shape over pods, a deployment and a service, the
// cells computed from an object's protobuf encoding (decoded, pruned, converted) are those computed from its
// JSON encoding as the dynamic informer decodes it, one column at a time and all at once.
func TestColumnsCodecCellsAreTheJSONPaths(t *testing.T) {
	var all []ObjectColumn
	for _, expr := range columnExprs {
		c, err := JSONPathColumn(expr, expr)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, c)
		for _, obj := range columnObjects() {
			compareCodecCells(t, obj, []ObjectColumn{c})
		}
	}
	for _, obj := range columnObjects() {
		compareCodecCells(t, obj, all)
	}
}

// compareCodecCells compares the cells of obj's row through the protobuf and the JSON path of a source of cols.
func compareCodecCells(t *testing.T, obj runtime.Object, cols []ObjectColumn) {
	t.Helper()
	gvk := kindOf(t, obj)
	plural := schema.GroupVersionResource{Group: gvk.Group, Version: gvk.Version, Resource: strings.ToLower(gvk.Kind) + "s"}
	src, err := NewObjectSource(nil, Spec{GVR: plural, Namespaced: true, Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	codec := newColumnsCodec(src, plural)
	if codec == nil {
		t.Fatalf("no codec for %s", plural)
	}
	raw, err := obj.(interface{ Marshal() ([]byte, error) }).Marshal()
	if err != nil {
		t.Fatal(err)
	}
	fromProto, err := codec.protoRow(raw)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := codec.jsonRow(jsonDecoded(t, obj, gvk))
	if err != nil {
		t.Fatal(err)
	}
	p, j := fromProto.get(), fromJSON.get()
	if !sameColumnCells(cols, p.Cells, j.Cells) || p.Key != j.Key || p.UID != j.UID ||
		!p.Created.Equal(j.Created) || len(p.Labels) != len(j.Labels) {
		for i := range p.Cells {
			if !sameColumnCells(cols[i:i+1], p.Cells[i:i+1], j.Cells[i:i+1]) {
				t.Errorf("%s %s, column %s: protobuf %q, JSON %q", gvk.Kind, p.Key, cols[i].Column.Name, p.Cells[i], j.Cells[i])
			}
		}
		if len(cols) > 1 || p.Key != j.Key {
			t.Errorf("%s: rows differ:\nprotobuf %+v\nJSON     %+v", gvk.Kind, p, j)
		}
	}
}

// sameColumnCells tells whether the cells a and b of cols are the same. The results of a wildcard over a map or of a
// recursive descent come in Go's map order, different each time (as kubectl prints them): such a cell is
// compared as the set of its comma-separated results.
func sameColumnCells(cols []ObjectColumn, a, b []string) bool {
	for i, c := range cols {
		x, y := a[i], b[i]
		if strings.Contains(c.Column.Name, ".*") || strings.Contains(c.Column.Name, "..") {
			xs, ys := strings.Split(x, ","), strings.Split(y, ",")
			slices.Sort(xs)
			slices.Sort(ys)
			x, y = strings.Join(xs, ","), strings.Join(ys, ",")
		}
		if x != y {
			return false
		}
	}
	return true
}

// kindOf returns obj's kind in client-go's scheme.
func kindOf(t *testing.T, obj runtime.Object) schema.GroupVersionKind {
	switch obj.(type) {
	case *corev1.Pod:
		return corev1.SchemeGroupVersion.WithKind("Pod")
	case *corev1.Service:
		return corev1.SchemeGroupVersion.WithKind("Service")
	case *appsv1.Deployment:
		return appsv1.SchemeGroupVersion.WithKind("Deployment")
	}
	t.Fatalf("no kind for %T", obj)
	return schema.GroupVersionKind{}
}

// jsonDecoded is obj as the dynamic client decodes it from the server's JSON list: kind and apiVersion set.
func jsonDecoded(t *testing.T, obj runtime.Object, gvk schema.GroupVersionKind) *unstructured.Unstructured {
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(append([]byte(`{"apiVersion":"`+gvk.GroupVersion().String()+`","kind":"`+gvk.Kind+`",`), b[1:]...)); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestPrunerKeepsWhatEncodesItself: a path below a value with its own JSON encoding (an int-or-string's Go
// fields) keeps the value as it is, and a field no path names is zeroed.
func TestPrunerKeepsWhatEncodesItself(t *testing.T) {
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Annotations: map[string]string{"a": "b"}},
		Spec: corev1.ServiceSpec{ClusterIP: "10.0.0.7", Ports: []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromString("http")}}}}
	f := &Fields{}
	f.Add("spec", "ports", "targetPort", "StrVal")
	f.Add("metadata", "name")
	newPruner().prune(s, f)
	if s.Spec.Ports[0].TargetPort != intstr.FromString("http") || s.Spec.Ports[0].Port != 0 || s.Spec.ClusterIP != "" ||
		s.Annotations != nil || s.Name != "web" {
		t.Errorf("pruned: %+v", s)
	}
}
