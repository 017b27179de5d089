// Package health tells how an object of any kind is doing, as sigs.k8s.io/cli-utils' kstatus computes it from
// its status and conditions (Current, InProgress, Failed, Terminating; Unknown when the status cannot be
// read), and lists the conditions its status carries. It reads only the object it is given; it is pure and
// safe for concurrent use. For the built-in kinds kstatus has rules for, ProtoKind computes the same status
// from an object's protobuf encoding, reading only the fields kstatus reads (proto.go).
package health

import (
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

// Status is an object's health, one of kstatus' statuses.
type Status string

// The statuses kstatus computes. NotFound is given by callers for an object that is gone.
const (
	Current     Status = Status(status.CurrentStatus)
	InProgress  Status = Status(status.InProgressStatus)
	Failed      Status = Status(status.FailedStatus)
	Terminating Status = Status(status.TerminatingStatus)
	NotFound    Status = Status(status.NotFoundStatus)
	Unknown     Status = Status(status.UnknownStatus)
)

// Health is an object's health and the conditions of its status. A plain value.
type Health struct {
	Status Status
	// Message is kstatus' explanation ("Deployment is available. Replicas: 3"), or why the status is Unknown.
	Message string
	// Conditions are status.conditions as the object carries them, in order.
	Conditions []Condition
}

// Condition is one entry of an object's status.conditions. LastTransition is zero when it is missing or
// not an RFC 3339 time.
type Condition struct {
	Type, Status, Reason, Message string
	LastTransition                time.Time
}

// Of computes obj's health. obj is not modified. A nil obj is NotFound.
func Of(obj *unstructured.Unstructured) Health {
	if obj == nil {
		return Health{Status: NotFound, Message: "the object does not exist"}
	}
	h := Health{Conditions: Conditions(obj)}
	res, err := status.Compute(obj)
	switch {
	case err != nil:
		h.Status, h.Message = Unknown, "status unreadable: "+err.Error()
	case res == nil:
		h.Status = Unknown
	default:
		h.Status, h.Message = Status(res.Status), res.Message
	}
	return h
}

// StatusOf computes only obj's status, as Of does but without its message and conditions: the form a table
// cell needs, once per version of every object listed. obj is not modified.
func StatusOf(obj *unstructured.Unstructured) Status {
	res, err := status.Compute(obj)
	if err != nil || res == nil {
		return Unknown
	}
	return Status(res.Status)
}

// Conditions reads status.conditions of obj, of any kind; entries that are not objects are skipped.
func Conditions(obj *unstructured.Unstructured) []Condition {
	list, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	out := make([]Condition, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		c := Condition{Type: str(m, "type"), Status: str(m, "status"), Reason: str(m, "reason"), Message: str(m, "message")}
		for _, field := range []string{"lastTransitionTime", "lastUpdateTime", "lastProbeTime", "lastHeartbeatTime"} {
			if t, err := time.Parse(time.RFC3339, str(m, field)); err == nil {
				c.LastTransition = t
				break
			}
		}
		out = append(out, c)
	}
	return out
}

// str is m[key] when it is a string, else "" (conditions of some kinds carry other types).
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}
