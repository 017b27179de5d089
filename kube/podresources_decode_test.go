package kube

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"

	"kscope/kubeproto"
)

// podResourceSpecs are the pod specs of the differential tests, by name.
func podResourceSpecs() []struct {
	name string
	spec corev1.PodSpec
} {
	always, never := corev1.ContainerRestartPolicyAlways, corev1.ContainerRestartPolicy("Never")
	r := func(req, lim map[string]string) corev1.Container {
		return corev1.Container{Name: "c", Resources: res(req, lim)}
	}
	sidecar := func(c corev1.Container, p *corev1.ContainerRestartPolicy) corev1.Container {
		c.RestartPolicy = p
		return c
	}
	return []struct {
		name string
		spec corev1.PodSpec
	}{
		{"no containers", corev1.PodSpec{}},
		{"a container without resources", corev1.PodSpec{Containers: []corev1.Container{{Name: "main"}}}},
		{"requests only", corev1.PodSpec{Containers: []corev1.Container{r(map[string]string{"cpu": "100m", "memory": "64Mi"}, nil)}}},
		{"limits only", corev1.PodSpec{Containers: []corev1.Container{r(nil, map[string]string{"cpu": "1.5", "memory": "1Gi"})}}},
		{"containers add up before rounding", corev1.PodSpec{Containers: []corev1.Container{
			r(map[string]string{"cpu": "0.4m", "memory": "500Mi"}, map[string]string{"cpu": "1e3", "memory": "1e3"}),
			r(map[string]string{"cpu": "0.4m", "memory": "0.5"}, map[string]string{"cpu": "100m", "memory": "1.5Gi"}),
			r(map[string]string{"cpu": "1n"}, nil),
		}}},
		{"other resources are not summed", corev1.PodSpec{Containers: []corev1.Container{
			r(map[string]string{"nvidia.com/gpu": "1", "ephemeral-storage": "10Gi", "cpu": "250m"},
				map[string]string{"hugepages-2Mi": "4Mi", "memory": "256Mi"}),
		}}},
		{"big quantities", corev1.PodSpec{Containers: []corev1.Container{
			r(map[string]string{"cpu": "9223372036854775807", "memory": "8Ei"}, map[string]string{"cpu": "123456789012345678901234567890m"}),
			r(map[string]string{"cpu": "9223372036854775807", "memory": "8Ei"}, map[string]string{"memory": "1.000000001"}),
		}}},
		{"sidecars count, other init containers do not", corev1.PodSpec{
			InitContainers: []corev1.Container{
				r(map[string]string{"cpu": "2", "memory": "2Gi"}, map[string]string{"cpu": "2"}),
				sidecar(r(map[string]string{"cpu": "50m", "memory": "32Mi"}, map[string]string{"cpu": "100m", "memory": "64Mi"}), &always),
				sidecar(r(map[string]string{"cpu": "7"}, nil), &never),
			},
			Containers: []corev1.Container{r(map[string]string{"cpu": "200m"}, nil)},
		}},
		{"only sidecars", corev1.PodSpec{InitContainers: []corev1.Container{
			sidecar(r(map[string]string{"memory": "1Mi"}, map[string]string{"memory": "1Mi"}), &always),
		}}},
	}
}

// testPods returns the pods of podResourceSpecs, in two namespaces, each encoded with every other field.
func testPods() []corev1.Pod {
	var pods []corev1.Pod
	for i, s := range podResourceSpecs() {
		ns := []string{"shop", "web"}[i%2]
		pods = append(pods, *fullPod(ns, podName(i), "10"+podName(i)[4:], s.spec))
	}
	return pods
}

// TestDecodePodListDifferential: a PodList as the apiserver encodes it decodes to what client-go's decoder
// then keepPodResources keep, pod by pod, with the list's metadata; pods of a namespace share its string.
func TestDecodePodListDifferential(t *testing.T) {
	pods, remaining := testPods(), int64(12)
	body := encodeBody(t, &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "4711", Continue: "tok",
		RemainingItemCount: &remaining}, Items: pods})
	ref, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := decodePodList(bytes.NewReader(body), podDecoder{texts: &namespaceTexts{}})
	if err != nil {
		t.Fatal(err)
	}
	want := ref.(*corev1.PodList)
	if len(list.Items) != len(want.Items) {
		t.Fatalf("%d pods, want %d", len(list.Items), len(want.Items))
	}
	specs := podResourceSpecs()
	for i := range want.Items {
		if got, w := keptOf(list.Items[i]), referenceKept(t, &want.Items[i]); got != w {
			t.Errorf("%s: %+v, want %+v", specs[i].name, got, w)
		}
	}
	if list.ResourceVersion != "4711" || list.Continue != "tok" || list.RemainingItemCount == nil ||
		*list.RemainingItemCount != remaining {
		t.Errorf("list metadata %+v", list.ListMeta)
	}
	if a, b := list.Items[0].namespace, list.Items[2].namespace; a != "shop" || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("namespaces %q and %q do not share their string", a, b)
	}
	empty, err := decodePodList(bytes.NewReader(encodeBody(t, &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "5"}})),
		podDecoder{texts: &namespaceTexts{}})
	if err != nil || len(empty.Items) != 0 || empty.Items == nil || empty.ResourceVersion != "5" {
		t.Errorf("an empty list: %+v, %v", empty, err)
	}
}

// TestDecodePodListCut: a list cut at any byte is an error, never a shorter list (cut after the list, only
// the envelope's empty trailing fields are missing and the list is whole).
func TestDecodePodListCut(t *testing.T) {
	body := encodeBody(t, &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "9"}, Items: testPods()})
	whole, err := decodePodList(bytes.NewReader(body), podDecoder{texts: &namespaceTexts{}})
	if err != nil {
		t.Fatal(err)
	}
	for cut := range len(body) {
		list, err := decodePodList(bytes.NewReader(body[:cut]), podDecoder{texts: &namespaceTexts{}})
		if err == nil && !reflect.DeepEqual(list, whole) {
			t.Fatalf("cut at %d of %d: %d pods and no error", cut, len(body), len(list.Items))
		}
		if err == nil && cut < len(body)-4 { // (the envelope ends with two empty fields, 4 bytes)
			t.Fatalf("cut at %d of %d: no error", cut, len(body))
		}
	}
}

// TestDecodePodListNotAList: a JSON body, a Status body (the API error it describes), another kind, an
// empty body are errors.
func TestDecodePodListNotAList(t *testing.T) {
	status := &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version: 1 (323507)"}
	forbidden := &metav1.Status{Status: metav1.StatusFailure, Code: 403, Reason: metav1.StatusReasonForbidden,
		Message: `pods is forbidden: User "viewer" cannot list resource "pods"`}
	tests := []struct {
		name  string
		body  []byte
		check func(error) bool
	}{
		{"JSON", []byte(`{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]}`),
			func(err error) bool { return strings.Contains(err.Error(), "JSON") }},
		{"expired", encodeBody(t, status), apierrors.IsResourceExpired},
		{"forbidden", encodeBody(t, forbidden), apierrors.IsForbidden},
		{"a pod", encodeBody(t, fullPod("shop", "web", "1", corev1.PodSpec{})),
			func(err error) bool { return strings.Contains(err.Error(), "a Pod where a PodList was expected") }},
		{"empty", nil, func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) }},
		{"magic only", []byte(kubeproto.Magic), func(err error) bool { return strings.Contains(err.Error(), "without its list") }},
		{"not protobuf", []byte("<html>"), func(err error) bool { return strings.Contains(err.Error(), "protobuf") }},
	}
	for _, tt := range tests {
		_, err := decodePodList(bytes.NewReader(tt.body), podDecoder{texts: &namespaceTexts{}})
		if err == nil || !tt.check(err) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// watchTestEvents returns a watch of every event type: the test pods added, one modified, one deleted, a
// bookmark (a pod with only its resourceVersion and the initial-events-end annotation) and an ERROR (410).
func watchTestEvents() []watch.Event {
	pods := testPods()
	var events []watch.Event
	for i := range pods {
		events = append(events, watch.Event{Type: watch.Added, Object: &pods[i]})
	}
	changed := pods[2].DeepCopy()
	changed.ResourceVersion, changed.Spec.Containers[0].Resources = "20", res(map[string]string{"cpu": "3"}, nil)
	bookmark := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "21",
		Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
	gone := &metav1.Status{Status: metav1.StatusFailure, Code: 410, Reason: metav1.StatusReasonExpired,
		Message: "too old resource version: 5 (21)"}
	return append(events, watch.Event{Type: watch.Modified, Object: changed},
		watch.Event{Type: watch.Deleted, Object: &pods[1]}, watch.Event{Type: watch.Bookmark, Object: bookmark},
		watch.Event{Type: watch.Error, Object: gone})
}

// TestPodWatchDecoderDifferential: a protobuf watch stream as the apiserver writes it decodes to the events
// client-go's decoder reads, each pod as keepPodResources keeps it; the ERROR event's Status is the error the
// reflector relists on; the stream ends with io.EOF.
func TestPodWatchDecoderDifferential(t *testing.T) {
	body, _ := encodeWatch(t, watchTestEvents())
	want := referenceWatch(t, body)
	got, err := decodeWatch(body)
	if err != io.EOF {
		t.Fatalf("the stream ended with %v, want io.EOF", err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i].Type != want[i].Type {
			t.Fatalf("event %d: %s, want %s", i, got[i].Type, want[i].Type)
		}
		switch w := want[i].Object.(type) {
		case *corev1.Pod:
			o, ok := got[i].Object.(*podResource)
			if !ok {
				t.Fatalf("event %d: %T", i, got[i].Object)
			}
			if g, w := keptOf(o), referenceKept(t, w); g != w {
				t.Errorf("event %d (%s): %+v, want %+v", i, want[i].Type, g, w)
			}
		case *metav1.Status:
			st, ok := got[i].Object.(*metav1.Status)
			if !ok || !reflect.DeepEqual(st, w) {
				t.Errorf("event %d: %#v, want %#v", i, got[i].Object, w)
			}
			if err := apierrors.FromObject(got[i].Object); !apierrors.IsResourceExpired(err) {
				t.Errorf("the ERROR event's error %v is not Expired", err)
			}
		default:
			t.Fatalf("event %d: client-go decoded a %T", i, w)
		}
	}
	if bm := got[len(got)-2].Object.(*podResource); *bm != (podResource{resourceVersion: "21"}) {
		t.Errorf("bookmark %+v", bm)
	}
}

// TestPodWatchDecoderCut: a stream cut between two events ends with io.EOF after them, a stream cut inside
// one with io.ErrUnexpectedEOF (what watch.StreamWatcher expects of either) after the events before it.
func TestPodWatchDecoderCut(t *testing.T) {
	body, ends := encodeWatch(t, watchTestEvents())
	whole, _ := decodeWatch(body)
	for cut := range len(body) {
		events, err := decodeWatch(body[:cut])
		complete := 0
		for complete < len(ends) && ends[complete] <= cut {
			complete++
		}
		atBoundary := cut == 0 || complete > 0 && ends[complete-1] == cut
		if atBoundary && err != io.EOF || !atBoundary && err != io.ErrUnexpectedEOF {
			t.Fatalf("cut at %d of %d: %v", cut, len(body), err)
		}
		if len(events) != complete || complete > 0 && !reflect.DeepEqual(events, whole[:complete]) {
			t.Fatalf("cut at %d of %d: %d events, want the first %d", cut, len(body), len(events), complete)
		}
	}
}

// TestPodWatchDecoderNotPods: a JSON stream, an unknown event type, an event without its object and a
// watch of another kind are errors.
func TestPodWatchDecoderNotPods(t *testing.T) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	other, _ := encodeWatch(t, []watch.Event{{Type: watch.Added, Object: ns}})
	invalid, _ := encodeWatch(t, []watch.Event{{Type: "RENAMED", Object: fullPod("shop", "web", "1", corev1.PodSpec{})}})
	tests := []struct {
		name, body, want string
	}{
		{"JSON", `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a"}}}`, "JSON"},
		{"short JSON", `{}`, "JSON"},
		{"another kind", string(other), "a Namespace where a Pod was expected"},
		{"unknown type", string(invalid), `invalid watch event type "RENAMED"`},
		{"no object", "\x00\x00\x00\x07\x0a\x05ADDED", "without an object"},
	}
	for _, tt := range tests {
		_, err := decodeWatch([]byte(tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
