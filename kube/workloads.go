package kube

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/cluster"
)

var (
	cronJobsGVR = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}
	jobsGVR     = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
)

// Trigger implements cluster.Workloads as `kubectl create job --from=cronjob/NAME` does, naming the Job as
// k9s does: NAME-manual-xxxxx (NAME cut so that the Job's name stays a valid label value).
func (c *Cluster) Trigger(ctx context.Context, namespace, name string, uid types.UID) (string, error) {
	cj, err := c.dyn.Resource(cronJobsGVR).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", DescribeServerError(c.cfg.Host, err)
	}
	if cj.GetUID() != uid {
		return "", apierrors.NewConflict(cronJobsGVR.GroupResource(), name, errors.New("the cronjob was deleted and re-created since it was shown"))
	}
	spec, _, _ := unstructured.NestedMap(cj.Object, "spec", "jobTemplate", "spec")
	labels, _, _ := unstructured.NestedStringMap(cj.Object, "spec", "jobTemplate", "metadata", "labels")
	annotations, _, _ := unstructured.NestedStringMap(cj.Object, "spec", "jobTemplate", "metadata", "annotations")
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations["cronjob.kubernetes.io/instantiate"] = "manual"
	job := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "batch/v1", "kind": "Job", "spec": spec}}
	job.SetName(manualJobName(name))
	job.SetNamespace(namespace)
	job.SetLabels(labels)
	job.SetAnnotations(annotations)
	yes := true
	job.SetOwnerReferences([]metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: name, UID: uid,
		Controller: &yes, BlockOwnerDeletion: &yes}})
	out, err := c.dyn.Resource(jobsGVR).Namespace(namespace).Create(ctx, job, metav1.CreateOptions{FieldManager: fieldManager})
	if err != nil {
		return "", DescribeServerError(c.cfg.Host, err)
	}
	return out.GetName(), nil
}

// manualJobName is cronjob-manual-xxxxx, at most 63 characters.
func manualJobName(cronjob string) string {
	suffix := "-manual-" + randomSuffix()
	return cronjob[:min(len(cronjob), 63-len(suffix))] + suffix
}

// Suspend implements cluster.Workloads with a merge patch of spec.suspend carrying pre.
func (c *Cluster) Suspend(ctx context.Context, namespace, name string, suspend bool, pre cluster.Precondition) error {
	patch, err := json.Marshal(map[string]any{"metadata": preconditionMeta(pre), "spec": map[string]any{"suspend": suspend}})
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(cronJobsGVR).Namespace(namespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return DescribeServerError(c.cfg.Host, uidConflict(cronJobsGVR, name, err))
	}
	return nil
}

// Images implements cluster.Workloads: the containers of the object's pod spec (podSpecPath), init ones first.
func (c *Cluster) Images(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) ([]cluster.ContainerImage, cluster.Precondition, error) {
	obj, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, cluster.Precondition{}, DescribeServerError(c.cfg.Host, err)
	}
	return containerImages(obj, gvr), cluster.Precondition{UID: obj.GetUID()}, nil
}

// containerImages lists obj's containers, init ones first.
func containerImages(obj *unstructured.Unstructured, gvr schema.GroupVersionResource) []cluster.ContainerImage {
	var out []cluster.ContainerImage
	for _, list := range []string{"initContainers", "containers"} {
		cs, _, _ := unstructured.NestedSlice(obj.Object, append(podSpecPath(gvr), list)...)
		for _, item := range cs {
			if m, ok := item.(map[string]any); ok {
				name, _ := m["name"].(string)
				image, _ := m["image"].(string)
				out = append(out, cluster.ContainerImage{Name: name, Image: image, Init: list == "initContainers"})
			}
		}
	}
	return out
}

// SetImage implements cluster.Workloads with a strategic merge patch of the container (by name) in the list
// that holds it (read from the object first); the patch carries pre.
func (c *Cluster) SetImage(ctx context.Context, gvr schema.GroupVersionResource, namespace, name, container, image string, pre cluster.Precondition) error {
	obj, err := c.dyn.Resource(gvr).Namespace(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return DescribeServerError(c.cfg.Host, err)
	}
	list := ""
	for _, ci := range containerImages(obj, gvr) {
		if ci.Name == container {
			list = map[bool]string{true: "initContainers", false: "containers"}[ci.Init]
		}
	}
	if list == "" {
		return fmt.Errorf("%s %s has no container %q", gvr.Resource, name, container)
	}
	path := podSpecPath(gvr)
	patch := map[string]any{list: []any{map[string]any{"name": container, "image": image}}}
	for i := len(path) - 1; i >= 0; i-- {
		patch = map[string]any{path[i]: patch}
	}
	patch["metadata"] = preconditionMeta(pre)
	data, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.StrategicMergePatchType, data, metav1.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return DescribeServerError(c.cfg.Host, uidConflict(gvr, name, err))
	}
	return nil
}

// podSpecPath is where an object of gvr holds its pod spec: spec for a pod, spec.jobTemplate.spec.template.spec
// for a cronjob, spec.template.spec for the other workloads.
func podSpecPath(gvr schema.GroupVersionResource) []string {
	switch gvr {
	case podsGVR:
		return []string{"spec"}
	case cronJobsGVR:
		return []string{"spec", "jobTemplate", "spec", "template", "spec"}
	}
	return []string{"spec", "template", "spec"}
}

// Kill implements cluster.Workloads: a delete with grace period 0 and uid as its precondition.
func (c *Cluster) Kill(ctx context.Context, namespace, name string, uid types.UID) error {
	zero := int64(0)
	opts := metav1.DeleteOptions{GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid}}
	if err := c.dyn.Resource(podsGVR).Namespace(namespace).Delete(ctx, name, opts); err != nil {
		return DescribeServerError(c.cfg.Host, err)
	}
	return nil
}

// Label implements cluster.Workloads with a merge patch of metadata.labels or metadata.annotations (a nil
// value removes its key) carrying pre.
func (c *Cluster) Label(ctx context.Context, gvr schema.GroupVersionResource, namespace, name, field string, changes map[string]*string, pre cluster.Precondition) error {
	if field != "labels" && field != "annotations" {
		return fmt.Errorf("label: unknown field %q", field)
	}
	meta := preconditionMeta(pre)
	meta[field] = changes
	patch, err := json.Marshal(map[string]any{"metadata": meta})
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(gvr).Namespace(namespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return DescribeServerError(c.cfg.Host, uidConflict(gvr, name, err))
	}
	return nil
}

// randomSuffix is five random characters, from those the API server's generateName picks from (as kubectl's
// names of debug containers and pods).
func randomSuffix() string {
	const letters = "bcdfghjklmnpqrstvwxz2456789"
	b := make([]byte, 5)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}
