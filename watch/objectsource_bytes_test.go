package watch

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// objectRows is the pod count the object source's memory is measured at.
const objectRows = 10000

// maxObjectBytesPerRow bounds the live heap an ObjectSource of NAME and IMAGE holds per pod (informer store of
// the cut-down objects, row store, snapshot). Measured 2026-12-01 at 10k pods: 2664 B (a Table Source of the
// same pods: 919 B), objects streamed as a watch-list.
const maxObjectBytesPerRow = 3200

// realisticPod is a pod of a deployment as the server returns it (managedFields, owner, status and all):
// about 4 KB of JSON.
func realisticPod(i int) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"bench-pod-%[1]d","generateName":"bench-7d9f8c-",
"namespace":"bench","uid":"5f0c1a2e-0000-4000-8000-%012[1]d","resourceVersion":"%[2]d","creationTimestamp":"2026-11-30T10:00:00Z",
"labels":{"app":"bench","pod-template-hash":"7d9f8c"},"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-30T09:59:00Z"},
"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"bench-7d9f8c","uid":"0b1c2d3e-0000-4000-8000-000000000001","controller":true,"blockOwnerDeletion":true}],
"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"2026-11-30T10:00:00Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0b1c2d3e\"}":{}}},
"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{},"f:resources":{},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},
"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},
{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-11-30T10:00:05Z","fieldsType":"FieldsV1","subresource":"status",
"fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},
"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.0.0.1\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}}]},
"spec":{"volumes":[{"name":"kube-api-access-abcde","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],"defaultMode":420}}],
"containers":[{"name":"app","image":"registry.example.com/team/bench:1.%[3]d","ports":[{"containerPort":8080,"protocol":"TCP"}],
"resources":{"limits":{"cpu":"500m","memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
"volumeMounts":[{"name":"kube-api-access-abcde","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],
"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"default","serviceAccount":"default",
"nodeName":"kwok-node-%[4]d","securityContext":{},"schedulerName":"default-scheduler",
"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},
"status":{"phase":"Running","conditions":[{"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:00Z"},
{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:05Z"},
{"type":"ContainersReady","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:05Z"},
{"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:00Z"}],
"hostIP":"172.18.0.%[4]d","podIP":"10.%[5]d.%[6]d.%[7]d","podIPs":[{"ip":"10.%[5]d.%[6]d.%[7]d"}],"startTime":"2026-11-30T10:00:00Z",
"containerStatuses":[{"name":"app","state":{"running":{"startedAt":"2026-11-30T10:00:04Z"}},"lastState":{},"ready":true,"restartCount":0,
"image":"registry.example.com/team/bench:1.%[3]d","imageID":"registry.example.com/team/bench@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
"containerID":"containerd://%064[1]d","started":true}],"qosClass":"Burstable"}}`,
		i, 1000+i, i%7, i%50, i/65536, i/256%256, i%256)
}

// benchPodList is a PodList of n realistic pods.
func benchPodList(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"999999"},"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(realisticPod(i))
	}
	b.WriteString("]}")
	return b.Bytes()
}

// benchPodStream is a watch-list stream of n realistic pods: their ADDED events, then the bookmark that ends
// the initial events.
func benchPodStream(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		b.WriteString(`{"type":"ADDED","object":` + realisticPod(i) + "}\n")
	}
	b.WriteString(`{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"999999",` +
		`"annotations":{"k8s.io/initial-events-end":"true"}}}}` + "\n")
	return b.Bytes()
}

// TestObjectBytesPerRow: an ObjectSource of NAME and IMAGE (`-o custom-columns=NAME:.metadata.name,
// IMAGE:.spec.containers[*].image`) synced on 10k realistic pods holds at most maxObjectBytesPerRow per row,
// measured as heap growth; the Table source's figure at the same count is logged beside it.
func TestObjectBytesPerRow(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a 10k-pod list")
	}
	src, snap, per := syncedObjectSource(t, objectColumns(t), true)
	defer src.Stop()
	t.Logf("%.0f bytes per row held by a synced ObjectSource (NAME, IMAGE) at %d pods", per, len(snap.Rows))
	if r, _ := src.Row("bench/bench-pod-3"); r == nil || r.Cells[1] != "registry.example.com/team/bench:1.3" {
		t.Fatalf("row %+v", r)
	}
	if per > maxObjectBytesPerRow {
		t.Errorf("%.0f bytes per row, want at most %d", per, maxObjectBytesPerRow)
	}
	runtime.KeepAlive(snap)
	src.Stop()

	var before, after runtime.MemStats
	table := benchPodTable(objectRows, true)
	tsrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		_, _ = w.Write(table)
	}))
	defer tsrv.Close()
	runtime.GC()
	runtime.ReadMemStats(&before)
	tsrc, err := NewSource(&rest.Config{Host: tsrv.URL}, Spec{GVR: podsGVR(), Namespaced: true})
	if err != nil {
		t.Fatal(err)
	}
	tsrc.Start(context.Background())
	defer tsrc.Stop()
	waitForRows(t, tsrc.Notify(), func() bool { return tsrc.State().Phase == Synced && tsrc.Len() == objectRows })
	tsnap := tsrc.Snapshot(Query{SortColumn: -1})
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("%.0f bytes per row held by a synced Table Source (the server's 9 pod columns, all namespaces) at %d pods",
		float64(after.HeapAlloc-before.HeapAlloc)/objectRows, len(tsnap.Rows))
	runtime.KeepAlive(tsnap)
	runtime.KeepAlive(table)
}

// waitForRows waits (at most five minutes: 10k objects decoded under the race detector on a busy machine) for
// cond, woken by notify.
func waitForRows(t *testing.T, notify <-chan struct{}, cond func() bool) {
	t.Helper()
	deadline := time.After(5 * time.Minute)
	for !cond() {
		select {
		case <-notify:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatal("not synced after five minutes")
		}
	}
}

// syncedObjectSource starts an ObjectSource of columns on a server of objectRows realistic pods (a LIST, or
// a streamed watch-list), waits until it holds them all, and returns it (to be stopped), its snapshot and the
// heap it grew by per row. logList logs the size of the list.
func syncedObjectSource(t *testing.T, columns []ObjectColumn, logList bool) (*ObjectSource, Snapshot, float64) {
	t.Helper()
	list, stream := benchPodList(objectRows), benchPodStream(objectRows)
	if logList {
		t.Logf("pod list: %d bytes, %d a pod", len(list), len(list)/objectRows)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "true" {
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" {
				_, _ = w.Write(stream)
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		_, _ = w.Write(list)
	}))
	t.Cleanup(srv.Close)
	client, err := dynamic.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	src, err := NewObjectSource(client, Spec{GVR: podsGVR(), Namespaced: true, Namespace: "bench", Columns: columns})
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	waitForRows(t, src.Notify(), func() bool { return src.State().Phase == Synced && src.Len() == objectRows })
	snap := src.Snapshot(Query{SortColumn: -1})
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(list)
	runtime.KeepAlive(stream)
	return src, snap, float64(after.HeapAlloc-before.HeapAlloc) / objectRows
}
