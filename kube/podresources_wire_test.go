package kube

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/streaming"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	restclientwatch "k8s.io/client-go/rest/watch"

	"kscope/cluster"
)

// The encodings of the tests are the apiserver's: the protobuf serializer of client-go's scheme for bodies
// (magic, runtime.Unknown), its stream serializer (raw WatchEvent) and length-delimited framer for watches.
// The reference decodes them with client-go's own decoders and keeps what keepPodResources keeps.

// keptPod is what both sides of a differential test keep of a pod.
type keptPod struct {
	Name, Namespace, ResourceVersion string
	Resources                        cluster.PodResources
}

// keptOf returns what the pod decoder kept.
func keptOf(o *podResource) keptPod {
	return keptPod{o.name, o.namespace, o.resourceVersion, o.sums}
}

// referenceKept returns what keepPodResources keeps of pod.
func referenceKept(t testing.TB, pod *corev1.Pod) keptPod {
	t.Helper()
	obj, err := keepPodResources(pod)
	if err != nil {
		t.Fatal(err)
	}
	o := obj.(*podResourceObject)
	return keptPod{o.Name, o.Namespace, o.ResourceVersion, o.resources}
}

// protobufInfo returns the apiserver's protobuf serializers.
func protobufInfo(t testing.TB) runtime.SerializerInfo {
	t.Helper()
	info, ok := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeProtobuf)
	if !ok || info.StreamSerializer == nil {
		t.Fatal("no protobuf serializer")
	}
	return info
}

// encodeBody encodes obj (v1) as the apiserver writes a protobuf response body.
func encodeBody(t testing.TB, obj runtime.Object) []byte {
	t.Helper()
	b, err := runtime.Encode(scheme.Codecs.EncoderForVersion(protobufInfo(t).Serializer, corev1.SchemeGroupVersion), obj)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// encodeWatch encodes events as the apiserver writes a protobuf watch stream, and returns the offsets at
// which its frames end.
func encodeWatch(t testing.TB, events []watch.Event) ([]byte, []int) {
	t.Helper()
	info := protobufInfo(t)
	var buf bytes.Buffer
	enc := streaming.NewEncoder(info.StreamSerializer.Framer.NewFrameWriter(&buf), info.StreamSerializer.Serializer)
	var ends []int
	for _, ev := range events {
		raw := encodeBody(t, ev.Object)
		if err := enc.Encode(&metav1.WatchEvent{Type: string(ev.Type), Object: runtime.RawExtension{Raw: raw}}); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, buf.Len())
	}
	return buf.Bytes(), ends
}

// referenceWatch decodes a watch stream with client-go's decoder, as rest.Request.Watch builds it.
func referenceWatch(t testing.TB, body []byte) []watch.Event {
	t.Helper()
	info := protobufInfo(t)
	frames := info.StreamSerializer.Framer.NewFrameReader(io.NopCloser(bytes.NewReader(body)))
	dec := restclientwatch.NewDecoder(streaming.NewDecoder(frames, info.StreamSerializer.Serializer),
		scheme.Codecs.UniversalDeserializer())
	var events []watch.Event
	for {
		typ, obj, err := dec.Decode()
		if err == io.EOF {
			return events
		}
		if err != nil {
			t.Fatalf("client-go's decoder: %v", err)
		}
		events = append(events, watch.Event{Type: typ, Object: obj})
	}
}

// decodeWatch decodes a watch stream with podWatchDecoder, returning its events and the error that ended it.
func decodeWatch(body []byte) ([]watch.Event, error) {
	d := newPodWatchDecoder(io.NopCloser(bytes.NewReader(body)), podDecoder{texts: &namespaceTexts{}})
	var events []watch.Event
	for {
		typ, obj, err := d.Decode()
		if err != nil {
			return events, err
		}
		events = append(events, watch.Event{Type: typ, Object: obj})
	}
}

// res returns a ResourceRequirements from "name=quantity" pairs for requests and limits.
func res(requests, limits map[string]string) corev1.ResourceRequirements {
	list := func(m map[string]string) corev1.ResourceList {
		if m == nil {
			return nil
		}
		l := corev1.ResourceList{}
		for k, v := range m {
			l[corev1.ResourceName(k)] = resource.MustParse(v)
		}
		return l
	}
	return corev1.ResourceRequirements{Requests: list(requests), Limits: list(limits)}
}

// fullPod returns a pod with spec's containers and init containers and every other field the decoder skips
// populated: metadata (labels, annotations, owner references, managed fields, finalizers, timestamps), the
// rest of the spec (volumes, tolerations, affinity, overhead and pod-level resources, ephemeral containers
// with resources, container ports, env, probes) and a status with conditions and container statuses (with
// their own resources and allocated resources).
func fullPod(namespace, name, rv string, spec corev1.PodSpec) *corev1.Pod {
	now := metav1.NewTime(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))
	always, grace := corev1.ContainerRestartPolicyAlways, int64(30)
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Name: name, Namespace: namespace, ResourceVersion: rv, GenerateName: name[:len(name)/2], UID: "0b8f-uid",
		Generation: 3, CreationTimestamp: now, DeletionTimestamp: &now, DeletionGracePeriodSeconds: &grace,
		Labels:      map[string]string{"app": "web", "cpu": "2"},
		Annotations: map[string]string{"kubectl.kubernetes.io/default-container": "main", "memory": "1Gi"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7f9c",
			UID: "rs-uid"}},
		Finalizers: []string{"example.com/keep"},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
			APIVersion: "v1", Time: &now, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{}}}}}`)}}},
	}}
	pod.Spec = spec
	pod.Spec.Containers, pod.Spec.InitContainers = slices.Clone(spec.Containers), slices.Clone(spec.InitContainers)
	pod.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{
		SizeLimit: ptrTo(resource.MustParse("1Gi"))}}}}
	pod.Spec.NodeSelector = map[string]string{"disk": "ssd"}
	pod.Spec.Tolerations = []corev1.Toleration{{Key: "cpu", Operator: corev1.TolerationOpExists}}
	pod.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone",
			Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}}}}}}}
	pod.Spec.Overhead = corev1.ResourceList{"cpu": resource.MustParse("250m"), "memory": resource.MustParse("120Mi")}
	pod.Spec.Resources = &corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("7")}}
	pod.Spec.NodeName, pod.Spec.TerminationGracePeriodSeconds = "kwok-node-0", &grace
	pod.Spec.EphemeralContainers = []corev1.EphemeralContainer{{EphemeralContainerCommon: corev1.EphemeralContainerCommon{
		Name: "debug", Image: "busybox", Resources: res(map[string]string{"cpu": "3"}, nil), RestartPolicy: &always}}}
	for _, cs := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
		for i := range cs {
			c := &cs[i]
			c.Image, c.Command, c.Env = "nginx:1.27", []string{"nginx", "-g", "daemon off;"}, []corev1.EnvVar{{Name: "CPU", Value: "1"}}
			c.Ports = []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
			c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz"}},
				PeriodSeconds: 5}
			c.VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
		}
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, HostIP: "10.0.0.1", PodIP: "10.244.0.7",
		PodIPs:     []corev1.PodIP{{IP: "10.244.0.7"}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: now}},
		QOSClass:   corev1.PodQOSBurstable, StartTime: &now,
		ContainerStatuses: []corev1.ContainerStatus{{Name: "main", Ready: true, RestartCount: 2, Image: "nginx:1.27",
			State:              corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}},
			AllocatedResources: corev1.ResourceList{"cpu": resource.MustParse("9"), "memory": resource.MustParse("9Gi")},
			Resources:          ptrTo(res(map[string]string{"cpu": "8"}, map[string]string{"memory": "8Gi"}))}},
	}
	return pod
}

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }

// podName returns the name of the i-th pod of a test.
func podName(i int) string { return fmt.Sprintf("web-%05d", i) }
