package watch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/health"
	"kscope/kubeproto"
)

// benchPendingPod is a pod of a deployment that no node can take, as the server holds it (managedFields,
// owner, volumes, tolerations, resources; Pending, PodScheduled False Unschedulable): the measured case of
// the HEALTH column (50k Pending pods).
func benchPendingPod(i int) *corev1.Pod {
	created := metav1.NewTime(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("bench-7d9f8c-%05d", i), GenerateName: "bench-7d9f8c-",
		Namespace: "bench", UID: types.UID(fmt.Sprintf("5f0c1a2e-0000-4000-8000-%012d", i)), ResourceVersion: fmt.Sprint(1000 + i),
		Generation: 1, CreationTimestamp: created, Labels: map[string]string{"app": "bench", "pod-template-hash": "7d9f8c"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "bench-7d9f8c",
			UID: "0b1c2d3e-0000-4000-8000-000000000001", Controller: ptrTo(true), BlockOwnerDeletion: ptrTo(true)}},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate,
			APIVersion: "v1", Time: &created, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(
				`{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0b1c2d3e\"}":{}}},` +
					`"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{}}},"f:dnsPolicy":{},"f:restartPolicy":{}}}`)}},
			{Manager: "kube-scheduler", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &created,
				FieldsType: "FieldsV1", Subresource: "status", FieldsV1: &metav1.FieldsV1{Raw: []byte(
					`{"f:status":{"f:conditions":{".":{},"k:{\"type\":\"PodScheduled\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}}}}`)}}}},
		Spec: corev1.PodSpec{Volumes: []corev1.Volume{{Name: "kube-api-access-abcde", VolumeSource: corev1.VolumeSource{
			Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptrTo(int64(3607)), Path: "token"}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
					Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}}}, DefaultMode: ptrTo(int32(420))}}}},
			Containers: []corev1.Container{{Name: "app", Image: fmt.Sprintf("registry.example.com/team/bench:1.%d", i%7),
				Ports: []corev1.ContainerPort{{ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse("100m"),
					"memory": resource.MustParse("128Mi")}},
				VolumeMounts: []corev1.VolumeMount{{Name: "kube-api-access-abcde", ReadOnly: true,
					MountPath: "/var/run/secrets/kubernetes.io/serviceaccount"}},
				TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent"}},
			RestartPolicy: "Always", TerminationGracePeriodSeconds: ptrTo(int64(30)), DNSPolicy: "ClusterFirst",
			ServiceAccountName: "default", SchedulerName: "default-scheduler", Priority: ptrTo(int32(0)),
			Tolerations: []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: "NoExecute",
				TolerationSeconds: ptrTo(int64(300))}, {Key: "node.kubernetes.io/unreachable", Operator: "Exists",
				Effect: "NoExecute", TolerationSeconds: ptrTo(int64(300))}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, QOSClass: corev1.PodQOSBurstable, Conditions: []corev1.PodCondition{{
			Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", LastTransitionTime: created,
			Message: "0/3 nodes are available: 3 node(s) had untolerated taint {node.kubernetes.io/not-ready: }."}}}}
}

func ptrTo[T any](v T) *T { return &v }

// healthBodies are what a server sends for a number of Pending pods: a JSON list, a JSON watch-list stream
// (the dynamic informer's first list) and a protobuf list.
type healthBodies struct{ jsonList, jsonStream, protoList []byte }

var (
	benchBodiesOnce sync.Once
	benchBodies     healthBodies
)

// pendingPodBodies returns the bodies of benchRows Pending pods, built once.
func pendingPodBodies() healthBodies {
	benchBodiesOnce.Do(func() { benchBodies = podBodies(benchRows) })
	return benchBodies
}

// podBodies returns the bodies of n Pending pods (benchPendingPod).
func podBodies(n int) healthBodies {
	var list, stream, items bytes.Buffer
	list.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"999999"},"items":[`)
	for i := range n {
		p := benchPendingPod(i)
		j := bytes.TrimSpace(wireBody(false, p))
		if i > 0 {
			list.WriteByte(',')
		}
		list.Write(j)
		stream.WriteString(`{"type":"ADDED","object":`)
		stream.Write(j)
		stream.WriteString("}\n")
		b, err := p.Marshal()
		if err != nil {
			panic(err)
		}
		items.Write(protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), b))
	}
	list.WriteString("]}")
	stream.WriteString(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"999999",` +
		`"annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n")
	meta, _ := (&metav1.ListMeta{ResourceVersion: "999999"}).Marshal()
	podList := append(protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), meta), items.Bytes()...)
	typeMeta, _ := (&k8sruntime.TypeMeta{APIVersion: "v1", Kind: "PodList"}).Marshal()
	body := append([]byte(kubeproto.Magic), protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), typeMeta)...)
	body = protowire.AppendBytes(protowire.AppendTag(body, 2, protowire.BytesType), podList)
	return healthBodies{jsonList: list.Bytes(), jsonStream: stream.Bytes(), protoList: body}
}

// serveBodies serves bodies: a list in protobuf where asked for first, else in JSON; a watch-list stream
// where asked for; an open watch with nothing to say.
func serveBodies(b healthBodies) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto := strings.HasPrefix(r.Header.Get("Accept"), "application/vnd.kubernetes.protobuf")
		w.Header().Set("Content-Type", wireType(proto))
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" {
				_, _ = w.Write(b.jsonStream)
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		if proto {
			_, _ = w.Write(b.protoList)
		} else {
			_, _ = w.Write(b.jsonList)
		}
	}))
}

// BenchmarkHealthColumn fills a HEALTH column of benchRows (50k) Pending pods, one op from start to synced:
// "json" is the dynamic informer over JSON (a watch-list stream, kstatus on each unstructured object in the
// transform: the path before), "protobuf" the reflector over the protobuf list (NewObjectSourceWithConfig),
// "json-stream" its path for a custom resource (JSON alone, each item of the list read as it arrives, kstatus
// on each: jsonCodec). held-B/pod is the heap the synced source holds a pod (after a GC); B/op
// is all it allocated. "json-decode" is the JSON path's floor: the list body decoded into unstructured
// objects, as the dynamic client decodes it, and "json-decode+kstatus" that with StatusOf of each object.
func BenchmarkHealthColumn(b *testing.B) {
	bodies := pendingPodBodies()
	spec := Spec{GVR: podsGVR(), Namespaced: true, Namespace: "bench", Columns: []ObjectColumn{HealthColumn()}}
	benchObjectSource(b, bodies, spec, func(r *Row) bool { return r.Cells[0] == "Failed" })
	b.Run("json-decode", func(b *testing.B) { benchDecodeJSON(b, bodies.jsonList, false) })
	b.Run("json-decode+kstatus", func(b *testing.B) { benchDecodeJSON(b, bodies.jsonList, true) })
}

// BenchmarkCustomColumns fills the custom columns of the project's bench (bench/cmd/screenbench: name, images,
// node, IP) over benchRows (50k) Pending pods, one op from start to synced, by the two paths and with the
// metrics of BenchmarkHealthColumn: "json" the dynamic informer over JSON (the path before), "protobuf" the
// reflector over the protobuf list (columnsCodec), "json-stream" the path of custom resources (jsonCodec).
func BenchmarkCustomColumns(b *testing.B) {
	spec := Spec{GVR: podsGVR(), Namespaced: true, Namespace: "bench"}
	for _, expr := range []string{"{.metadata.name}", "{.spec.containers[*].image}", "{.spec.nodeName}", "{.status.podIP}"} {
		c, err := JSONPathColumn(expr, expr)
		if err != nil {
			b.Fatal(err)
		}
		spec.Columns = append(spec.Columns, c)
	}
	benchObjectSource(b, pendingPodBodies(), spec, func(r *Row) bool {
		return r.Cells[0] == "bench-7d9f8c-00042" && r.Cells[2] == "<none>"
	})
}

// benchObjectSource runs a source of spec over bodies by each path, one op from start to synced: "json" the
// dynamic informer over JSON (NewObjectSource), "protobuf" NewObjectSourceWithConfig's path for spec, and
// "json-stream" its path for the same spec over a custom resource (JSON alone, each list item read as it
// arrives: jsonCodec); check must hold for the row of pod 42.
func benchObjectSource(b *testing.B, bodies healthBodies, spec Spec, check func(r *Row) bool) {
	srv := serveBodies(bodies)
	defer srv.Close()
	f := &fakeObjectsAPI{srv: srv}
	// (A custom resource's spec: the fake server sends the pods whatever the path.)
	custom := spec
	custom.GVR = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	for _, path := range []string{"json", "protobuf", "json-stream"} {
		b.Run(path, func(b *testing.B) {
			var held float64
			start := cpuTime()
			for range b.N {
				var src *ObjectSource
				var err error
				before := heapAfterGC(b)
				switch path {
				case "json":
					src, err = NewObjectSource(f.dynamicClient(b), spec)
				case "protobuf":
					src, err = NewObjectSourceWithConfig(f.config(), f.dynamicClient(b), spec)
				default:
					src, err = NewObjectSourceWithConfig(f.config(), f.dynamicClient(b), custom)
				}
				if err != nil {
					b.Fatal(err)
				}
				if json := src.proto != nil && src.proto.jsonOnly; (src.proto != nil) != (path != "json") || json != (path == "json-stream") {
					b.Fatalf("%s: protobuf %v, JSON only %v", path, src.proto != nil, json)
				}
				src.Start(context.Background())
				for src.State().Phase != Synced || src.Len() != benchRows {
					select {
					case <-src.Notify():
					case <-time.After(10 * time.Millisecond):
					}
				}
				held += float64(heapAfterGC(b)-before) / benchRows
				if r, _ := src.Row("bench/bench-7d9f8c-00042"); r == nil || !check(r) {
					b.Fatalf("row %+v", r)
				}
				src.Stop()
			}
			reportCPU(b, start)
			b.ReportMetric(held/float64(b.N), "held-B/pod")
		})
	}
}

// benchDecodeJSON decodes the JSON list body into unstructured objects, with the status of each if kstatus.
func benchDecodeJSON(b *testing.B, body []byte, kstatus bool) {
	start := cpuTime()
	for range b.N {
		obj, _, err := unstructured.UnstructuredJSONScheme.Decode(body, nil, nil)
		if err != nil {
			b.Fatal(err)
		}
		if !kstatus {
			continue
		}
		for i := range obj.(*unstructured.UnstructuredList).Items {
			if health.StatusOf(&obj.(*unstructured.UnstructuredList).Items[i]) != health.Failed {
				b.Fatal("not Failed")
			}
		}
	}
	reportCPU(b, start)
}

// heapAfterGC returns the heap in use after a collection, with the benchmark's timer stopped.
func heapAfterGC(b *testing.B) uint64 {
	b.StopTimer()
	defer b.StartTimer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
