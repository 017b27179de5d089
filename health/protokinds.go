package health

import (
	"google.golang.org/protobuf/encoding/protowire"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// protoKinds are the built-in kinds ProtoKind reads: those kstatus has rules for (sigs.k8s.io/cli-utils
// pkg/kstatus/status core.go, v0.37.2), at the version the API serves, each with the fields its rule and the
// generic checks (generic.go: deletionTimestamp, generation against status.observedGeneration, the
// Reconciling and Stalled conditions) read. Field numbers are from k8s.io/api's generated.proto, JSON names
// and presence from its types.go (v0.37.2). A kind kstatus reads more of must list it here: the exactness
// tests compare every kind with StatusOf of its JSON.
var protoKinds = []*ProtoKind{
	{gvk: core("Pod"), resource: "pods", created: true, status: []field{
		{num: 17, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
		{num: 1, name: "phase", kind: strOmitEmpty},
		conditions(2, 5, strOmitEmpty),
		{num: 8, name: "containerStatuses", kind: messageList, sub: []field{
			{num: 1, name: "name", kind: strAlways},
			{num: 2, name: "state", kind: message, sub: []field{
				{num: 1, name: "waiting", kind: messagePointer, sub: []field{
					{num: 1, name: "reason", kind: strOmitEmpty},
				}},
			}},
		}},
	}},
	{gvk: core("PersistentVolumeClaim"), resource: "persistentvolumeclaims", status: []field{
		{num: 1, name: "phase", kind: strOmitEmpty},
		conditions(4, 5, strOmitEmpty),
	}},
	{gvk: core("Service"), resource: "services", spec: []field{
		{num: 3, name: "clusterIP", kind: strOmitEmpty},
		{num: 4, name: "type", kind: strOmitEmpty},
	}, status: []field{
		conditions(2, 5, strAlways), // metav1.Condition
	}},
	{gvk: core("ConfigMap"), resource: "configmaps"},
	{gvk: core("Secret"), resource: "secrets"},
	{gvk: apps("Deployment"), resource: "deployments", spec: []field{
		intPtr(1, "replicas"),
		intPtr(9, "progressDeadlineSeconds"),
	}, status: []field{
		{num: 1, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
		int32Field(2, "replicas", intOmitEmpty),
		int32Field(3, "updatedReplicas", intOmitEmpty),
		int32Field(7, "readyReplicas", intOmitEmpty),
		int32Field(4, "availableReplicas", intOmitEmpty),
		conditions(6, 4, strOmitEmpty),
	}},
	{gvk: apps("StatefulSet"), resource: "statefulsets", spec: []field{
		intPtr(1, "replicas"),
		{num: 7, name: "updateStrategy", kind: message, sub: []field{
			{num: 1, name: "type", kind: strOmitEmpty},
			{num: 2, name: "rollingUpdate", kind: messagePointer, sub: []field{intPtr(1, "partition")}},
		}},
	}, status: []field{
		{num: 1, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
		int32Field(2, "replicas", intAlways),
		int32Field(3, "readyReplicas", intOmitEmpty),
		int32Field(4, "currentReplicas", intOmitEmpty),
		int32Field(5, "updatedReplicas", intOmitEmpty),
		{num: 6, name: "currentRevision", kind: strOmitEmpty},
		{num: 7, name: "updateRevision", kind: strOmitEmpty},
		conditions(10, 4, strOmitEmpty),
	}},
	{gvk: apps("DaemonSet"), resource: "daemonsets", status: []field{
		int32Field(1, "currentNumberScheduled", intAlways),
		int32Field(3, "desiredNumberScheduled", intAlways),
		int32Field(4, "numberReady", intAlways),
		{num: 5, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
		int32Field(6, "updatedNumberScheduled", intOmitEmpty),
		int32Field(7, "numberAvailable", intOmitEmpty),
		conditions(10, 4, strOmitEmpty),
	}},
	{gvk: apps("ReplicaSet"), resource: "replicasets", spec: []field{
		intPtr(1, "replicas"),
	}, status: []field{
		int32Field(1, "replicas", intAlways),
		int32Field(2, "fullyLabeledReplicas", intOmitEmpty),
		int32Field(4, "readyReplicas", intOmitEmpty),
		int32Field(5, "availableReplicas", intOmitEmpty),
		{num: 3, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
		conditions(6, 4, strOmitEmpty),
	}},
	{gvk: batch("Job"), resource: "jobs", spec: []field{
		intPtr(1, "parallelism"),
		intPtr(2, "completions"),
	}, status: []field{
		conditions(1, 5, strOmitEmpty),
		{num: 2, name: "startTime", kind: timePointer},
		int32Field(4, "active", intOmitEmpty),
		int32Field(5, "succeeded", intOmitEmpty),
		int32Field(6, "failed", intOmitEmpty),
	}},
	{gvk: batch("CronJob"), resource: "cronjobs"}, // its status has no conditions nor observedGeneration
	{gvk: schema.GroupVersionKind{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}, resource: "poddisruptionbudgets",
		status: []field{
			{num: 1, name: "observedGeneration", kind: intOmitEmpty, bits: 64},
			conditions(7, 5, strAlways), // metav1.Condition
		}},
}

func core(kind string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Version: "v1", Kind: kind}
}

func apps(kind string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: kind}
}

func batch(kind string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "batch", Version: "v1", Kind: kind}
}

// conditions is a status' conditions field num, whose messages have their type as field 1, their status as
// field 2 and their reason as field reason (4 in package apps', 5 elsewhere), which the JSON shows as
// reasonKind (metav1.Condition's reason has no omitempty). kstatus reads nothing else of a condition (its
// message only for its own message).
func conditions(num, reason int, reasonKind valueKind) field {
	return field{num: protowire.Number(num), name: "conditions", kind: messageList, sub: []field{
		{num: 1, name: "type", kind: strAlways},
		{num: 2, name: "status", kind: strAlways},
		{num: protowire.Number(reason), name: "reason", kind: reasonKind},
	}}
}

// intPtr is a *int32 field.
func intPtr(num int, name string) field {
	return field{num: protowire.Number(num), name: name, kind: intPointer, bits: 32}
}

// int32Field is an int32 field shown as kind.
func int32Field(num int, name string, kind valueKind) field {
	return field{num: protowire.Number(num), name: name, kind: kind, bits: 32}
}
