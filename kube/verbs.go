package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/kubectl/pkg/describe"

	"kscope/cluster"
	"kscope/discovery"
)

// describeTimeout bounds the requests of one describe (the object, its events, related objects).
const describeTimeout = 30 * time.Second

// restartedAtAnnotation is the pod template annotation `kubectl rollout restart` sets.
const restartedAtAnnotation = "kubectl.kubernetes.io/restartedAt"

// Describe implements cluster.Objects with k8s.io/kubectl's describers: the typed describer of a built-in kind,
// the generic one for any other (CRDs, aggregated APIs), events shown, as `kubectl describe` prints it. The
// describers take no context: ctx bounds only the wait, the requests end after describeTimeout.
func (c *Cluster) Describe(ctx context.Context, res discovery.Resource, namespace, name string) (string, error) {
	cfg := rest.CopyConfig(c.cfg)
	cfg.Timeout = describeTimeout
	mapping := &meta.RESTMapping{
		Resource:         res.GVR(),
		GroupVersionKind: schema.GroupVersionKind{Group: res.Group, Version: res.Version, Kind: res.Kind},
		Scope:            meta.RESTScopeRoot,
	}
	if res.Namespaced {
		mapping.Scope = meta.RESTScopeNamespace
	}
	d, ok := describe.DescriberFor(mapping.GroupVersionKind.GroupKind(), cfg)
	if !ok {
		if d, ok = describe.GenericDescriberFor(mapping, cfg); !ok {
			return "", fmt.Errorf("no describer for %s", res.FullName())
		}
	}
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	c.start.Go(func() {
		text, err := d.Describe(namespace, name, describe.DescriberSettings{ShowEvents: true, ChunkSize: 500})
		done <- result{text, err}
	})
	select {
	case r := <-done:
		if r.err != nil {
			return "", DescribeServerError(c.cfg.Host, r.err)
		}
		return r.text, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Update implements cluster.Objects: a PUT of obj, whose resourceVersion the server checks (Conflict when the
// object changed since it was read).
func (c *Cluster) Update(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	out, err := c.dyn.Resource(gvr).Namespace(obj.GetNamespace()).Update(ctx, obj, metav1.UpdateOptions{FieldManager: fieldManager})
	if err != nil {
		return nil, DescribeServerError(c.cfg.Host, err)
	}
	return out, nil
}

// fieldManager names kscope in the managedFields of what it writes (as kubectl names itself kubectl-edit…).
const fieldManager = "kscope"

// Replicas implements cluster.Objects: spec.replicas of the object's scale subresource, with the scale's UID and
// resourceVersion as the precondition of a scale from it.
func (c *Cluster) Replicas(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (cluster.ScaleState, error) {
	scale, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{}, "scale")
	if err != nil {
		return cluster.ScaleState{}, DescribeServerError(c.cfg.Host, err)
	}
	n, _, err := unstructured.NestedInt64(scale.Object, "spec", "replicas")
	if err != nil {
		return cluster.ScaleState{}, fmt.Errorf("scale of %s: %w", name, err)
	}
	pre := cluster.Precondition{UID: scale.GetUID(), ResourceVersion: scale.GetResourceVersion()}
	return cluster.ScaleState{Replicas: int32(n), Precondition: pre}, nil
}

// Scale implements cluster.Objects with a merge patch of spec.replicas on the scale subresource, as kubectl
// scale sends it, carrying pre in the patch's metadata: the server answers Conflict when the scale's UID
// or resourceVersion is no longer pre's.
func (c *Cluster) Scale(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, replicas int32, pre cluster.Precondition) error {
	patch, err := json.Marshal(map[string]any{"metadata": preconditionMeta(pre), "spec": map[string]any{"replicas": replicas}})
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.MergePatchType, patch,
		metav1.PatchOptions{FieldManager: fieldManager}, "scale")
	if err != nil {
		return DescribeServerError(c.cfg.Host, err)
	}
	return nil
}

// Restart implements cluster.Objects as `kubectl rollout restart` does: the pod template's restartedAt
// annotation set to at, which makes the controller replace every pod. The patch carries pre in its
// metadata; a UID that is no longer the object's is answered Conflict.
func (c *Cluster) Restart(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, at time.Time, pre cluster.Precondition) error {
	patch, err := json.Marshal(map[string]any{"metadata": preconditionMeta(pre), "spec": map[string]any{"template": map[string]any{
		"metadata": map[string]any{"annotations": map[string]string{restartedAtAnnotation: at.Format(time.RFC3339)}},
	}}})
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.StrategicMergePatchType, patch,
		metav1.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return DescribeServerError(c.cfg.Host, uidConflict(gvr, name, err))
	}
	return nil
}

// preconditionMeta is the metadata a patch carries so that the server checks pre: the patched object's
// resourceVersion is the one the update is conditioned on (Conflict when it changed), and its UID must be
// the object's (a scale subresource answers Conflict, the object itself Invalid: see uidConflict).
func preconditionMeta(pre cluster.Precondition) map[string]any {
	meta := map[string]any{}
	if pre.UID != "" {
		meta["uid"] = string(pre.UID)
	}
	if pre.ResourceVersion != "" {
		meta["resourceVersion"] = pre.ResourceVersion
	}
	return meta
}

// uidConflict turns the server's answer to a patch whose metadata.uid is not the object's (Invalid: the
// field is immutable) into the Conflict it is: the object of that name is another one. Other errors are
// returned as they are.
func uidConflict(gvr schema.GroupVersionResource, name string, err error) error {
	var status apierrors.APIStatus
	if !apierrors.IsInvalid(err) || !errors.As(err, &status) || status.Status().Details == nil {
		return err
	}
	for _, cause := range status.Status().Details.Causes {
		if cause.Field == "metadata.uid" {
			return apierrors.NewConflict(gvr.GroupResource(), name, fmt.Errorf("precondition failed: %s", cause.Message))
		}
	}
	return err
}

// Can implements cluster.Access. A question in a namespace is answered from the rules the server lists for
// it (one SelfSubjectRulesReview per namespace and minute, shared by every screen of the connection:
// rulesAnswer); a question where those cannot tell, or cannot be read, and one of no namespace (the server
// lists rules only in a namespace), with a SelfSubjectAccessReview of q. Read-only mode lets both through:
// they change nothing.
func (c *Cluster) Can(ctx context.Context, q cluster.AccessQuery) (cluster.AccessAnswer, error) {
	if q.Namespace != "" {
		if status, err := c.rules.get(ctx, c.auth, q.Namespace); err == nil {
			if ans, decided := rulesAnswer(status, q); decided {
				return ans, nil
			}
		}
	}
	review := &authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
		ResourceAttributes: &authorizationv1.ResourceAttributes{
			Namespace: q.Namespace, Verb: q.Verb, Group: q.GVR.Group, Version: q.GVR.Version,
			Resource: q.GVR.Resource, Subresource: q.Subresource, Name: q.Name,
		},
	}}
	out, err := c.auth.SelfSubjectAccessReviews().Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return cluster.AccessAnswer{}, DescribeServerError(c.cfg.Host, err)
	}
	return cluster.AccessAnswer{Allowed: out.Status.Allowed && !out.Status.Denied, Reason: out.Status.Reason}, nil
}
