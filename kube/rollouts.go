package kube

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

var (
	deploymentsGVR         = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	replicaSetsGVR         = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
	controllerRevisionsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "controllerrevisions"}
)

const (
	changeCauseAnnotation = "kubernetes.io/change-cause"
	revisionAnnotation    = "deployment.kubernetes.io/revision"
	podTemplateHashLabel  = "pod-template-hash"
)

// rollable says whether kscope reads and undoes the revisions of gvr: apps/v1 deployments, statefulsets and
// daemonsets.
func rollable(gvr schema.GroupVersionResource) error {
	if gvr.Group == "apps" && (gvr.Resource == "deployments" || gvr.Resource == "statefulsets" || gvr.Resource == "daemonsets") {
		return nil
	}
	return fmt.Errorf("%s have no rollout history: only deployments, statefulsets and daemonsets do", gvr.Resource)
}

// Revisions implements cluster.Rollouts as kubectl rollout history reads them: the ReplicaSets a deployment
// controls, the ControllerRevisions a statefulset or daemonset controls (matched by its selector, then by
// the controller ownerReference's UID).
func (c *Cluster) Revisions(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]cluster.Revision, types.UID, error) {
	workload, owned, err := c.rolloutObjects(ctx, gvr, namespace, name)
	if err != nil {
		return nil, "", err
	}
	return revisionsOf(gvr, workload, owned), workload.GetUID(), nil
}

// rolloutObjects reads the workload and the objects holding its revisions.
func (c *Cluster) rolloutObjects(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, []unstructured.Unstructured, error) {
	if err := rollable(gvr); err != nil {
		return nil, nil, err
	}
	workload, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, nil, DescribeServerError(c.cfg.Host, err)
	}
	sel, _, _ := unstructured.NestedMap(workload.Object, "spec", "selector")
	var ls metav1.LabelSelector
	if err := runtimeConvert(sel, &ls); err != nil {
		return nil, nil, fmt.Errorf("the selector of %s %s: %w", gvr.Resource, name, err)
	}
	selector, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil {
		return nil, nil, fmt.Errorf("the selector of %s %s: %w", gvr.Resource, name, err)
	}
	holders := controllerRevisionsGVR
	if gvr.Resource == "deployments" {
		holders = replicaSetsGVR
	}
	list, err := c.dyn.Resource(holders).Namespace(namespace).List(ctx, metav1.ListOptions{LabelSelector: selector.String()})
	if err != nil {
		return nil, nil, DescribeServerError(c.cfg.Host, err)
	}
	return workload, list.Items, nil
}

// runtimeConvert decodes the JSON-shaped value in into out.
func runtimeConvert(in any, out any) error {
	data, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// revisionsOf returns the revisions of workload (of gvr) that owned holds (its ReplicaSets or
// ControllerRevisions, those of other controllers left out), oldest first.
func revisionsOf(gvr schema.GroupVersionResource, workload *unstructured.Unstructured, owned []unstructured.Unstructured) []cluster.Revision {
	var out []cluster.Revision
	for i := range owned {
		o := &owned[i]
		if ref := metav1.GetControllerOf(o); ref == nil || ref.UID != workload.GetUID() {
			continue
		}
		r := cluster.Revision{ChangeCause: o.GetAnnotations()[changeCauseAnnotation], Created: o.GetCreationTimestamp().Time}
		if gvr.Resource == "deployments" {
			n, err := strconv.ParseInt(o.GetAnnotations()[revisionAnnotation], 10, 64)
			if err != nil {
				continue // not (yet) a revision
			}
			r.Number = n
			r.Template = replicaSetTemplate(o)
			r.Current = o.GetAnnotations()[revisionAnnotation] == workload.GetAnnotations()[revisionAnnotation]
		} else {
			r.Number, _, _ = unstructured.NestedInt64(o.Object, "revision")
			r.Template = controllerRevisionTemplate(o)
			if cur, _, _ := unstructured.NestedString(workload.Object, "status", "updateRevision"); cur != "" {
				r.Current = o.GetName() == cur
			}
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b cluster.Revision) int { return cmp.Compare(a.Number, b.Number) })
	if gvr.Resource == "daemonsets" && len(out) > 0 {
		out[len(out)-1].Current = true // the controller gives the template it runs the highest revision
	}
	return out
}

// replicaSetTemplate is rs's pod template without the pod-template-hash label the controller adds.
func replicaSetTemplate(rs *unstructured.Unstructured) map[string]any {
	t, _, _ := unstructured.NestedMap(rs.Object, "spec", "template")
	if labels, ok, _ := unstructured.NestedMap(t, "metadata", "labels"); ok {
		delete(labels, podTemplateHashLabel)
		if len(labels) == 0 {
			unstructured.RemoveNestedField(t, "metadata", "labels")
		} else {
			_ = unstructured.SetNestedMap(t, labels, "metadata", "labels")
		}
	}
	return t
}

// controllerRevisionTemplate is the pod template a ControllerRevision holds (data.spec.template, a strategic
// merge patch replacing the template), without its $patch directive.
func controllerRevisionTemplate(cr *unstructured.Unstructured) map[string]any {
	t, _, _ := unstructured.NestedMap(cr.Object, "data", "spec", "template")
	delete(t, "$patch")
	return t
}

// Undo implements cluster.Rollouts as kubectl rollout undo --to-revision does, with a strategic merge patch
// carrying the UID: a deployment's spec.template replaced by its ReplicaSet's (hash label left out) and its
// annotations by the ReplicaSet's (the rollout's own kept); a statefulset's or daemonset's ControllerRevision
// data applied as it is.
func (c *Cluster) Undo(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string, revision int64, uid types.UID, dryRun bool) (map[string]any, error) {
	workload, owned, err := c.rolloutObjects(ctx, gvr, namespace, name)
	if err != nil {
		return nil, err
	}
	if workload.GetUID() != uid {
		return nil, apierrors.NewConflict(gvr.GroupResource(), name, fmt.Errorf("the %s was deleted and re-created since it was shown", gvr.Resource))
	}
	patch, err := undoPatch(gvr, workload, owned, revision)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(patch)
	if err != nil {
		return nil, err
	}
	opts := metav1.PatchOptions{FieldManager: fieldManager}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	out, err := c.dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.StrategicMergePatchType, data, opts)
	if err != nil {
		return nil, DescribeServerError(c.cfg.Host, uidConflict(gvr, name, err))
	}
	t, _, _ := unstructured.NestedMap(out.Object, "spec", "template")
	return t, nil
}

// undoPatch is the strategic merge patch that brings workload back to revision, one of owned's.
func undoPatch(gvr schema.GroupVersionResource, workload *unstructured.Unstructured, owned []unstructured.Unstructured, revision int64) (map[string]any, error) {
	for i := range owned {
		o := &owned[i]
		if ref := metav1.GetControllerOf(o); ref == nil || ref.UID != workload.GetUID() {
			continue
		}
		meta := map[string]any{"uid": string(workload.GetUID())}
		if gvr.Resource != "deployments" {
			if n, _, _ := unstructured.NestedInt64(o.Object, "revision"); n != revision {
				continue
			}
			patch, _, _ := unstructured.NestedMap(o.Object, "data")
			if patch == nil {
				return nil, fmt.Errorf("revision %d of %s %s holds no template", revision, gvr.Resource, workload.GetName())
			}
			patch["metadata"] = meta
			return patch, nil
		}
		if o.GetAnnotations()[revisionAnnotation] != strconv.FormatInt(revision, 10) {
			continue
		}
		if paused, _, _ := unstructured.NestedBool(workload.Object, "spec", "paused"); paused {
			return nil, fmt.Errorf("deployment %s is paused: resume it before undoing (kubectl rollout resume)", workload.GetName())
		}
		template := replicaSetTemplate(o)
		template["$patch"] = "replace"
		meta["annotations"] = undoAnnotations(workload.GetAnnotations(), o.GetAnnotations())
		return map[string]any{"metadata": meta, "spec": map[string]any{"template": template}}, nil
	}
	return nil, fmt.Errorf("%s %s has no revision %d", gvr.Resource, workload.GetName(), revision)
}

// rolloutAnnotations are a deployment's own, kept through an undo (kubectl's annotationsToSkip).
var rolloutAnnotations = map[string]bool{
	"kubectl.kubernetes.io/last-applied-configuration": true,
	revisionAnnotation:                          true,
	"deployment.kubernetes.io/revision-history": true,
	"deployment.kubernetes.io/desired-replicas": true,
	"deployment.kubernetes.io/max-replicas":     true,
	"deprecated.deployment.rollback.to":         true,
}

// undoAnnotations is the merge of a deployment's annotations (now) into the ReplicaSet's (rs) that kubectl
// writes: rs's, but the rollout's own, which stay as they are; the others of now are removed (null).
func undoAnnotations(now, rs map[string]string) map[string]any {
	out := map[string]any{}
	for k := range now {
		if !rolloutAnnotations[k] {
			out[k] = nil
		}
	}
	for k, v := range rs {
		if !rolloutAnnotations[k] {
			out[k] = v
		}
	}
	return out
}
