package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/kubectl/pkg/drain"

	"kscope/cluster"
)

var nodesGVR = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}

// Cordon implements cluster.Nodes as kubectl cordon and uncordon do (spec.unschedulable), with pre in the
// patch's metadata: a node that is no longer pre.UID is answered Conflict.
func (c *Cluster) Cordon(ctx context.Context, name string, unschedulable bool, pre cluster.Precondition) error {
	patch, err := json.Marshal(map[string]any{"metadata": preconditionMeta(pre), "spec": map[string]any{"unschedulable": unschedulable}})
	if err != nil {
		return err
	}
	_, err = c.dyn.Resource(nodesGVR).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
	if err != nil {
		return DescribeServerError(c.cfg.Host, uidConflict(nodesGVR, name, err))
	}
	return nil
}

// DrainPlan implements cluster.Nodes with kubectl's drain filters (k8s.io/kubectl/pkg/drain).
func (c *Cluster) DrainPlan(ctx context.Context, name string, opts cluster.DrainOptions) (cluster.DrainPlan, error) {
	h, err := c.drainHelper(ctx, opts, nil)
	if err != nil {
		return cluster.DrainPlan{}, err
	}
	list, errs := h.GetPodsForDeletion(name)
	if len(errs) > 0 {
		return cluster.DrainPlan{}, c.drainError(errs)
	}
	plan := cluster.DrainPlan{Warnings: list.Warnings()}
	for _, p := range list.Pods() {
		plan.Evict = append(plan.Evict, p.Namespace+"/"+p.Name)
	}
	return plan, nil
}

// Drain implements cluster.Nodes as kubectl drain does: cordon, the drain filters again (the pods may have
// changed since the plan), then evictions, waiting for the pods to go.
func (c *Cluster) Drain(ctx context.Context, name string, opts cluster.DrainOptions, pre cluster.Precondition, progress func(cluster.DrainEvent)) error {
	if err := c.Cordon(ctx, name, true, pre); err != nil {
		return fmt.Errorf("cordon: %w", err)
	}
	h, err := c.drainHelper(ctx, opts, progress)
	if err != nil {
		return err
	}
	list, errs := h.GetPodsForDeletion(name)
	if len(errs) > 0 {
		return c.drainError(errs)
	}
	if err := h.DeleteOrEvictPods(list.Pods()); err != nil {
		return DescribeServerError(c.cfg.Host, err)
	}
	return nil
}

// drainHelper is kubectl's drain over the connection, with opts, reporting to progress (nil: nothing).
func (c *Cluster) drainHelper(ctx context.Context, opts cluster.DrainOptions, progress func(cluster.DrainEvent)) (*drain.Helper, error) {
	cs, err := kubernetes.NewForConfig(c.cfg)
	if err != nil {
		return nil, fmt.Errorf("clientset: %w", err)
	}
	h := &drain.Helper{
		Ctx: ctx, Client: cs, Force: opts.Force, GracePeriodSeconds: opts.GracePeriod, Timeout: opts.Timeout,
		IgnoreAllDaemonSets: opts.IgnoreDaemonSets, DeleteEmptyDirData: opts.DeleteEmptyDirData,
		Out: io.Discard, ErrOut: io.Discard,
	}
	if progress != nil {
		h.OnPodDeletionOrEvictionStarted = func(pod *corev1.Pod, _ bool) {
			progress(cluster.DrainEvent{Pod: pod.Namespace + "/" + pod.Name})
		}
		h.OnPodDeletionOrEvictionFinished = func(pod *corev1.Pod, _ bool, err error) {
			progress(cluster.DrainEvent{Pod: pod.Namespace + "/" + pod.Name, Done: true, Err: err})
		}
	}
	return h, nil
}

// drainError is kubectl drain's refusal as one line: its filters' reasons, or the server's error.
func (c *Cluster) drainError(errs []error) error {
	var lines []string
	for _, err := range errs {
		lines = append(lines, DescribeServerError(c.cfg.Host, err).Error())
	}
	return fmt.Errorf("cannot drain: %s", strings.Join(lines, "; "))
}
