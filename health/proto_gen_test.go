package health

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// gen draws the values kstatus reads from small sets that hold every value its rules tell apart (and some
// they do not know), so that random objects reach every branch of every rule. Counts of one object are
// mostly equal (base), so that the rules that compare them get past their first comparison.
type gen struct {
	r    *rand.Rand
	base *int32
}

func pick[T any](g gen, vs ...T) T { return vs[g.r.IntN(len(vs))] }

// chance is true with probability p.
func (g gen) chance(p float64) bool { return g.r.Float64() < p }

// count is the object's base count, or another.
func (g gen) count() int32 {
	if g.chance(0.75) {
		return *g.base
	}
	return pick(g, int32(0), 1, 2, 3)
}

// countPtr is a count or nil (a default).
func (g gen) countPtr() *int32 {
	if g.chance(0.6) {
		return ptr(*g.base)
	}
	return pick(g, nil, ptr(int32(0)), ptr(int32(1)), ptr(int32(2)), ptr(int32(3)), ptr(int32(math.MaxInt32)))
}

// meta is random metadata: generation 0-3, sometimes terminating, created long ago, just now or never.
func (g gen) meta(i int) metav1.ObjectMeta {
	*g.base = pick(g, int32(0), 1, 2, 3)
	m := objMeta(fmt.Sprintf("obj-%d", i), int64(g.r.IntN(4)))
	m.CreationTimestamp = pick(g, m.CreationTimestamp, metav1.NewTime(time.Now().Add(-2*time.Second)), metav1.Time{})
	switch {
	case g.chance(0.1):
		m = terminating(m)
	case g.chance(0.01):
		m.DeletionTimestamp = &metav1.Time{} // null in JSON: kstatus cannot read it
	}
	return m
}

// observed is a status' observedGeneration: mostly the generation, so that the kinds' own rules are reached.
func (g gen) observed(m metav1.ObjectMeta) int64 {
	if g.chance(0.7) {
		return m.Generation
	}
	return int64(g.r.IntN(4))
}

// cond draws a condition's type, status and reason among types.
func (g gen) cond(types, reasons []string) (string, string, string) {
	return pick(g, append(types, "Reconciling", "Stalled", "Ready", "Other")...),
		pick(g, "True", "False", "Unknown", ""),
		pick(g, append(reasons, "", "Other")...)
}

func (g gen) conds(types, reasons []string, add func(typ, st, reason string)) {
	for range g.r.IntN(4) {
		add(g.cond(types, reasons))
	}
}

func (g gen) pod(i int) runtime.Object {
	var conds []corev1.PodCondition
	g.conds([]string{"Ready", "PodScheduled", "ContainersReady"}, []string{"Unschedulable", "ContainersNotReady"},
		func(typ, st, reason string) {
			conds = append(conds, podCond(corev1.PodConditionType(typ), corev1.ConditionStatus(st), reason))
		})
	var cs []corev1.ContainerStatus
	for range g.r.IntN(4) {
		name := pick(g, "app", "side", "")
		if g.chance(0.5) {
			cs = append(cs, running(name))
		} else {
			cs = append(cs, waiting(name, pick(g, "CrashLoopBackOff", "ImagePullBackOff", "")))
		}
	}
	p := pod(g.meta(i), pick[corev1.PodPhase](g, "", "Pending", "Running", "Succeeded", "Failed", "Unknown"), conds, cs...)
	p.Status.ObservedGeneration = g.observed(p.ObjectMeta)
	return p
}

func (g gen) deployment(i int) runtime.Object {
	d := &appsv1.Deployment{ObjectMeta: g.meta(i), Spec: appsv1.DeploymentSpec{Replicas: g.countPtr(),
		ProgressDeadlineSeconds: pick(g, nil, ptr(int32(0)), ptr(int32(600)), ptr(int32(math.MaxInt32)))}}
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: g.observed(d.ObjectMeta), Replicas: g.count(),
		UpdatedReplicas: g.count(), ReadyReplicas: g.count(), AvailableReplicas: g.count(), UnavailableReplicas: g.count()}
	g.conds([]string{"Available", "Progressing"}, []string{"ProgressDeadlineExceeded", "NewReplicaSetAvailable"},
		func(typ, st, reason string) {
			d.Status.Conditions = append(d.Status.Conditions, appsv1.DeploymentCondition{Type: appsv1.DeploymentConditionType(typ),
				Status: corev1.ConditionStatus(st), Reason: reason, Message: "m"})
		})
	return d
}

func (g gen) statefulSet(i int) runtime.Object {
	s := &appsv1.StatefulSet{ObjectMeta: g.meta(i), Spec: appsv1.StatefulSetSpec{Replicas: g.countPtr(),
		UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: pick[appsv1.StatefulSetUpdateStrategyType](g, "", "OnDelete", "RollingUpdate")}}}
	if g.chance(0.5) {
		s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: g.countPtr()}
	}
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: g.observed(s.ObjectMeta), Replicas: g.count(),
		ReadyReplicas: g.count(), CurrentReplicas: g.count(), UpdatedReplicas: g.count(), AvailableReplicas: g.count(),
		CurrentRevision: pick(g, "", "a", "b"), UpdateRevision: pick(g, "", "a", "b")}
	g.conds(nil, nil, func(typ, st, reason string) {
		s.Status.Conditions = append(s.Status.Conditions, appsv1.StatefulSetCondition{Type: appsv1.StatefulSetConditionType(typ),
			Status: corev1.ConditionStatus(st), Reason: reason})
	})
	return s
}

func (g gen) daemonSet(i int) runtime.Object {
	d := &appsv1.DaemonSet{ObjectMeta: g.meta(i)}
	d.Status = appsv1.DaemonSetStatus{ObservedGeneration: g.observed(d.ObjectMeta), DesiredNumberScheduled: g.count(),
		CurrentNumberScheduled: g.count(), UpdatedNumberScheduled: g.count(), NumberAvailable: g.count(), NumberReady: g.count()}
	g.conds(nil, nil, func(typ, st, reason string) {
		d.Status.Conditions = append(d.Status.Conditions, appsv1.DaemonSetCondition{Type: appsv1.DaemonSetConditionType(typ),
			Status: corev1.ConditionStatus(st), Reason: reason})
	})
	return d
}

func (g gen) replicaSet(i int) runtime.Object {
	r := &appsv1.ReplicaSet{ObjectMeta: g.meta(i), Spec: appsv1.ReplicaSetSpec{Replicas: g.countPtr()}}
	r.Status = appsv1.ReplicaSetStatus{ObservedGeneration: g.observed(r.ObjectMeta), Replicas: g.count(),
		FullyLabeledReplicas: g.count(), ReadyReplicas: g.count(), AvailableReplicas: g.count()}
	g.conds([]string{"ReplicaFailure"}, nil, func(typ, st, reason string) {
		r.Status.Conditions = append(r.Status.Conditions, appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetConditionType(typ),
			Status: corev1.ConditionStatus(st), Reason: reason})
	})
	return r
}

func (g gen) job(i int) runtime.Object {
	started := metav1.NewTime(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	j := &batchv1.Job{ObjectMeta: g.meta(i), Spec: batchv1.JobSpec{Parallelism: g.countPtr(), Completions: g.countPtr()},
		Status: batchv1.JobStatus{StartTime: pick(g, nil, &started, &metav1.Time{}), Active: g.count(),
			Succeeded: g.count(), Failed: g.count()}}
	g.conds([]string{"Complete", "Failed", "Suspended"}, []string{"BackoffLimitExceeded"}, func(typ, st, reason string) {
		j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobConditionType(typ),
			Status: corev1.ConditionStatus(st), Reason: reason})
	})
	return j
}

func (g gen) claim(i int) runtime.Object {
	c := &corev1.PersistentVolumeClaim{ObjectMeta: g.meta(i),
		Status: corev1.PersistentVolumeClaimStatus{Phase: pick[corev1.PersistentVolumeClaimPhase](g, "", "Bound", "Pending", "Lost")}}
	g.conds(nil, nil, func(typ, st, reason string) {
		c.Status.Conditions = append(c.Status.Conditions, corev1.PersistentVolumeClaimCondition{
			Type: corev1.PersistentVolumeClaimConditionType(typ), Status: corev1.ConditionStatus(st), Reason: reason})
	})
	return c
}

// metaConds are metav1.Conditions (a Service's, a PodDisruptionBudget's).
func (g gen) metaConds() []metav1.Condition {
	var out []metav1.Condition
	g.conds(nil, nil, func(typ, st, reason string) {
		out = append(out, metav1.Condition{Type: typ, Status: metav1.ConditionStatus(st), Reason: reason})
	})
	return out
}

func (g gen) service(i int) runtime.Object {
	return &corev1.Service{ObjectMeta: g.meta(i),
		Spec: corev1.ServiceSpec{Type: pick[corev1.ServiceType](g, "", "ClusterIP", "LoadBalancer", "NodePort"),
			ClusterIP: pick(g, "", "None", "10.0.0.1")},
		Status: corev1.ServiceStatus{Conditions: g.metaConds()}}
}

func (g gen) budget(i int) runtime.Object {
	b := &policyv1.PodDisruptionBudget{ObjectMeta: g.meta(i)}
	b.Status = policyv1.PodDisruptionBudgetStatus{ObservedGeneration: g.observed(b.ObjectMeta), Conditions: g.metaConds()}
	return b
}

func (g gen) others(i int) runtime.Object {
	return pick[runtime.Object](g, &corev1.ConfigMap{ObjectMeta: g.meta(i)}, &corev1.Secret{ObjectMeta: g.meta(i)},
		&batchv1.CronJob{ObjectMeta: g.meta(i)})
}

// TestProtoRandomObjects: for random objects of every kind (their status fields, conditions, generations,
// deletion and creation times drawn by gen), the protobuf path computes the status the JSON path computes.
// It logs how many objects of each kind got each status: every rule's outcomes are reached.
func TestProtoRandomObjects(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 200
	}
	g := gen{r: rand.New(rand.NewPCG(1, 2)), base: new(int32)}
	for _, kind := range []struct {
		name string
		make func(int) runtime.Object
	}{
		{"pod", g.pod}, {"deployment", g.deployment}, {"statefulset", g.statefulSet}, {"daemonset", g.daemonSet},
		{"replicaset", g.replicaSet}, {"job", g.job}, {"claim", g.claim}, {"service", g.service}, {"budget", g.budget},
		{"configmap, secret, cronjob", g.others},
	} {
		seen := map[Status]int{}
		for i := range n {
			seen[checkSame(t, fmt.Sprintf("%s %d", kind.name, i), kind.make(i))]++
		}
		t.Logf("%s: %v", kind.name, seen)
	}
}
