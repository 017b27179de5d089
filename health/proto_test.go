package health

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// objMeta is the metadata of the test objects: identity, generation, and the fields a server sets that
// kstatus does not read (labels, annotations, owner, managedFields), which the reader must skip.
func objMeta(name string, generation int64) metav1.ObjectMeta {
	created := metav1.NewTime(time.Now().Add(-time.Hour).Truncate(time.Second))
	return metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), ResourceVersion: "42", Generation: generation,
		CreationTimestamp: created, Labels: map[string]string{"app": "web"},
		Annotations:     map[string]string{"kubectl.kubernetes.io/restartedAt": "now", "status": "Failed"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs"}},
		ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply,
			APIVersion: "v1", Time: &created, FieldsType: "FieldsV1",
			FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:status":{"f:phase":{}}}`)}}}}
}

// terminating marks m as deleted, waiting for its finalizers.
func terminating(m metav1.ObjectMeta) metav1.ObjectMeta {
	now := metav1.Now()
	m.DeletionTimestamp, m.Finalizers = &now, []string{"example.com/hold"}
	return m
}

func ptr[T any](v T) *T { return &v }

// podCond and the other condition helpers build one condition of each kind's type.
func podCond(typ corev1.PodConditionType, st corev1.ConditionStatus, reason string) corev1.PodCondition {
	return corev1.PodCondition{Type: typ, Status: st, Reason: reason, Message: "about " + reason,
		LastTransitionTime: metav1.NewTime(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC))}
}

// waiting, running: a container's status.
func waiting(name, reason string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Image: "busybox", RestartCount: 7,
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: "back-off 5m0s"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}}}
}

func running(name string) corev1.ContainerStatus {
	return corev1.ContainerStatus{Name: name, Ready: true, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

// pod returns a pod in phase with conditions and container statuses, its spec as a server holds it.
func pod(m metav1.ObjectMeta, phase corev1.PodPhase, conds []corev1.PodCondition, cs ...corev1.ContainerStatus) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: m,
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "app", Image: "busybox",
			Command: []string{"sh", "-c", "phase: Running"}}}},
		Status: corev1.PodStatus{ObservedGeneration: m.Generation, Phase: phase, Conditions: conds, ContainerStatuses: cs,
			InitContainerStatuses: []corev1.ContainerStatus{waiting("init", "CrashLoopBackOff")}, // not read by kstatus
			Message:               "Running", Reason: "Ready"}}
}

// TestProtoNamedCases: the statuses of each kind's rules (terminating, failed, crash-looping, unschedulable,
// a generation not observed …) are those the JSON path computes, and are the expected ones.
func TestProtoNamedCases(t *testing.T) {
	ready := podCond(corev1.PodReady, corev1.ConditionTrue, "")
	notReady := podCond(corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady")
	unschedulable := podCond(corev1.PodScheduled, corev1.ConditionFalse, "Unschedulable")
	recent := objMeta("recent", 1)
	recent.CreationTimestamp = metav1.NewTime(time.Now().Add(-2 * time.Second))
	deploy := func(m metav1.ObjectMeta, observed int64, replicas *int32, ready int32, conds ...appsv1.DeploymentCondition) *appsv1.Deployment {
		return &appsv1.Deployment{ObjectMeta: m, Spec: appsv1.DeploymentSpec{Replicas: replicas, ProgressDeadlineSeconds: ptr(int32(600))},
			Status: appsv1.DeploymentStatus{ObservedGeneration: observed, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: ready,
				AvailableReplicas: ready, Conditions: conds}}
	}
	available := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"}
	progressed := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable"}
	deadline := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: "ProgressDeadlineExceeded"}
	sts := func(strategy appsv1.StatefulSetUpdateStrategy, current, update string) *appsv1.StatefulSet {
		return &appsv1.StatefulSet{ObjectMeta: objMeta("db", 2), Spec: appsv1.StatefulSetSpec{Replicas: ptr(int32(2)), UpdateStrategy: strategy},
			Status: appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 2, ReadyReplicas: 2, CurrentReplicas: 2, UpdatedReplicas: 1,
				CurrentRevision: current, UpdateRevision: update}}
	}
	job := func(conds []batchv1.JobCondition, start *metav1.Time) *batchv1.Job {
		return &batchv1.Job{ObjectMeta: objMeta("batch", 1), Spec: batchv1.JobSpec{Completions: ptr(int32(2))},
			Status: batchv1.JobStatus{Conditions: conds, StartTime: start, Failed: 1}}
	}
	started := metav1.NewTime(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	stalled := metav1.Condition{Type: "Stalled", Status: metav1.ConditionTrue, Reason: "Broken", LastTransitionTime: started}
	tests := []struct {
		name string
		obj  runtime.Object
		want Status
	}{
		{"pod ready", pod(objMeta("a", 1), corev1.PodRunning, []corev1.PodCondition{ready}, running("app")), Current},
		{"pod running, not ready", pod(objMeta("a", 1), corev1.PodRunning, []corev1.PodCondition{notReady}, running("app")), InProgress},
		{"pod crash-looping", pod(objMeta("a", 1), corev1.PodRunning, []corev1.PodCondition{notReady}, running("side"),
			waiting("app", "CrashLoopBackOff")), Failed},
		{"pod crash-looping, unnamed", pod(objMeta("a", 1), corev1.PodRunning, nil, waiting("", "CrashLoopBackOff")), Failed},
		{"pod pulling", pod(objMeta("a", 1), corev1.PodRunning, nil, waiting("app", "ImagePullBackOff")), InProgress},
		{"pod pending", pod(objMeta("a", 1), corev1.PodPending, nil), InProgress},
		{"pod unschedulable", pod(objMeta("a", 1), corev1.PodPending, []corev1.PodCondition{unschedulable}), Failed},
		{"pod unschedulable, just created", pod(recent, corev1.PodPending, []corev1.PodCondition{unschedulable}), InProgress},
		{"pod succeeded", pod(objMeta("a", 1), corev1.PodSucceeded, nil), Current},
		{"pod failed", pod(objMeta("a", 1), corev1.PodFailed, nil, waiting("app", "CrashLoopBackOff")), Current},
		{"pod not observed", pod(objMeta("a", 0), "", nil), InProgress},
		{"pod of an unknown phase", pod(objMeta("a", 1), "Lost", nil), Unknown},
		{"pod terminating", pod(terminating(objMeta("a", 1)), corev1.PodRunning, []corev1.PodCondition{ready}), Terminating},
		{"pod generation not observed", func() runtime.Object {
			p := pod(objMeta("a", 3), corev1.PodRunning, []corev1.PodCondition{ready})
			p.Status.ObservedGeneration = 2
			return p
		}(), InProgress},
		{"deployment available", deploy(objMeta("web", 4), 4, ptr(int32(3)), 3, available, progressed), Current},
		{"deployment generation not observed", deploy(objMeta("web", 5), 4, ptr(int32(3)), 3, available, progressed), InProgress},
		{"deployment rolling out", deploy(objMeta("web", 4), 4, ptr(int32(3)), 1, available, progressed), InProgress},
		{"deployment past its deadline", deploy(objMeta("web", 4), 4, ptr(int32(3)), 1, deadline), Failed},
		{"deployment of no replicas field", deploy(objMeta("web", 4), 4, nil, 3, available, progressed), InProgress},
		{"deployment scaled to zero", deploy(objMeta("web", 4), 4, ptr(int32(0)), 3, available, progressed), InProgress},
		{"deployment terminating", deploy(terminating(objMeta("web", 4)), 4, ptr(int32(3)), 3), Terminating},
		{"statefulset on delete", sts(appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}, "a", "b"), Current},
		{"statefulset revision mismatch", sts(appsv1.StatefulSetUpdateStrategy{}, "a", "b"), InProgress},
		{"statefulset partitioned", sts(appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{
			Partition: ptr(int32(1))}}, "a", "b"), Current},
		{"statefulset current", sts(appsv1.StatefulSetUpdateStrategy{}, "a", "a"), Current},
		{"daemonset unobserved", &appsv1.DaemonSet{ObjectMeta: objMeta("ds", 1)}, InProgress},
		{"daemonset of no pods", &appsv1.DaemonSet{ObjectMeta: objMeta("ds", 1), Status: appsv1.DaemonSetStatus{ObservedGeneration: 1}}, Current},
		{"daemonset short", &appsv1.DaemonSet{ObjectMeta: objMeta("ds", 1), Status: appsv1.DaemonSetStatus{ObservedGeneration: 1,
			DesiredNumberScheduled: 3, CurrentNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 2, NumberReady: 3}}, InProgress},
		{"replicaset failing", &appsv1.ReplicaSet{ObjectMeta: objMeta("rs", 1), Spec: appsv1.ReplicaSetSpec{Replicas: ptr(int32(0))},
			Status: appsv1.ReplicaSetStatus{ObservedGeneration: 1, Conditions: []appsv1.ReplicaSetCondition{{
				Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate"}}}}, InProgress},
		{"replicaset of zero", &appsv1.ReplicaSet{ObjectMeta: objMeta("rs", 1), Spec: appsv1.ReplicaSetSpec{Replicas: ptr(int32(0))},
			Status: appsv1.ReplicaSetStatus{ObservedGeneration: 1}}, Current},
		{"job not started", job(nil, nil), InProgress},
		{"job running", job(nil, &started), Current},
		{"job failed", job([]batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded"}}, &started), Failed},
		{"job complete", job([]batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}, &started), Current},
		{"claim bound", &corev1.PersistentVolumeClaim{ObjectMeta: objMeta("data", 0), Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimBound}}, Current},
		{"claim pending", &corev1.PersistentVolumeClaim{ObjectMeta: objMeta("data", 0)}, InProgress},
		{"load balancer without an IP", &corev1.Service{ObjectMeta: objMeta("lb", 0), Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer}}, InProgress},
		{"load balancer", &corev1.Service{ObjectMeta: objMeta("lb", 0), Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer, ClusterIP: "10.0.0.1"}}, Current},
		{"service stalled", &corev1.Service{ObjectMeta: objMeta("svc", 0), Status: corev1.ServiceStatus{Conditions: []metav1.Condition{stalled}}}, Failed},
		{"budget", &policyv1.PodDisruptionBudget{ObjectMeta: objMeta("pdb", 2), Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 2}}, Current},
		{"budget behind", &policyv1.PodDisruptionBudget{ObjectMeta: objMeta("pdb", 2), Status: policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1}}, InProgress},
		{"config map", &corev1.ConfigMap{ObjectMeta: objMeta("cm", 0), Data: map[string]string{"phase": "Failed"}}, Current},
		{"secret terminating", &corev1.Secret{ObjectMeta: terminating(objMeta("s", 0))}, Terminating},
		{"cron job", &batchv1.CronJob{ObjectMeta: objMeta("cron", 3)}, Current},
	}
	for _, tt := range tests {
		if got := checkSame(t, tt.name, tt.obj); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// TestProtoKindFor: the built-in resources kstatus has rules for, at the version the API serves; nothing
// for other versions, other kinds and custom resources.
func TestProtoKindFor(t *testing.T) {
	for _, tt := range []struct {
		gvr  schema.GroupVersionResource
		kind string
	}{
		{schema.GroupVersionResource{Version: "v1", Resource: "pods"}, "Pod"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "Deployment"},
		{schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}, "PodDisruptionBudget"},
		{schema.GroupVersionResource{Group: "apps", Version: "v1beta1", Resource: "deployments"}, ""},
		{schema.GroupVersionResource{Version: "v1", Resource: "nodes"}, ""},
		{schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "pods"}, ""},
	} {
		k := ProtoKindFor(tt.gvr)
		if (k == nil) != (tt.kind == "") || k != nil && (k.Kind() != tt.kind || k.ListKind() != tt.kind+"List") {
			t.Errorf("ProtoKindFor(%s) = %+v, want %q", tt.gvr, k, tt.kind)
		}
	}
}

// TestProtoReadErrors: a field kstatus reads that has the wrong wire type is an error, as in the generated
// code; bytes that end inside a field are one too.
func TestProtoReadErrors(t *testing.T) {
	k := ProtoKindFor(schema.GroupVersionResource{Version: "v1", Resource: "pods"})
	for _, tt := range []struct {
		name string
		b    []byte
		err  string
	}{
		{"status as a varint", []byte{3<<3 | 0, 1}, "status: wire type 0"},
		{"phase as a varint", []byte{3<<3 | 2, 2, 1<<3 | 0, 1}, "phase: wire type 0"},
		{"generation as bytes", []byte{1<<3 | 2, 3, 7<<3 | 2, 1, 'x'}, "generation: wire type 2"},
		{"a cut field", []byte{1<<3 | 2, 9, 1}, "unexpected EOF"},
	} {
		if _, err := k.Read(tt.b); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.err)
		}
	}
	if o, err := k.Read(nil); err != nil || o.Status != InProgress {
		t.Errorf("an empty pod: %+v, %v", o, err) // no phase yet: PodNotObserved
	}
}
