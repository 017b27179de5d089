package kubeproto

// The field numbers of metav1.ObjectMeta (and metav1.Time) that kscope's decoders read, from
// k8s.io/apimachinery's meta/v1 generated.proto (v0.37.2).
const (
	ObjectMetaName              = 1  // ObjectMeta.name
	ObjectMetaNamespace         = 3  // ObjectMeta.namespace
	ObjectMetaUID               = 5  // ObjectMeta.uid
	ObjectMetaResourceVersion   = 6  // ObjectMeta.resourceVersion
	ObjectMetaCreationTimestamp = 8  // ObjectMeta.creationTimestamp (Time)
	ObjectMetaLabels            = 11 // ObjectMeta.labels, map<string, string>
	TimeSeconds                 = 1  // Time.seconds
)
