package main

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
)

//go:embed manifests/*.yaml
var manifests embed.FS

const fieldManager = "devcluster-seed"

func runSeed(ctx context.Context, l layout, args []string) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	pods := fs.Int("pods", 0, "create this many extra pods (in parallel) instead of the demo content")
	namespace := fs.String("namespace", "scale", "namespace for --pods")
	workers := fs.Int("parallel", 64, "parallel creates for --pods")
	contextName := fs.String("context", "", "the kubeconfig context of the cluster to seed (default: the first cluster's admin); in a cluster without nodes (second, third …) the pods stay Pending")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cc, err := contextClients(l, *contextName)
	if err != nil {
		return err
	}
	start := time.Now()
	if *pods > 0 {
		nodes, err := hasNodes(l, *contextName)
		if err != nil {
			return err
		}
		return seedPods(ctx, l, cc, *namespace, *pods, *workers, nodes)
	}
	objects, err := loadManifests()
	if err != nil {
		return err
	}
	for _, obj := range objects {
		if err := applyObject(ctx, cc, obj); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "devcluster: seeded %d objects in %s\n", len(objects), time.Since(start).Round(100*time.Millisecond))
	return nil
}

// loadManifests decodes every embedded manifest, in file order.
func loadManifests() ([]*unstructured.Unstructured, error) {
	names, err := fs.Glob(manifests, "manifests/*.yaml")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []*unstructured.Unstructured
	for _, name := range names {
		data, err := manifests.ReadFile(name)
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			obj := &unstructured.Unstructured{}
			if err := dec.Decode(&obj.Object); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, fmt.Errorf("decode %s: %w", name, err)
			}
			if len(obj.Object) > 0 {
				out = append(out, obj)
			}
		}
	}
	return out, nil
}

// applyObject server-side applies obj (and its status, where the manifest has one), waiting for
// CustomResourceDefinitions to be established so that their instances can follow.
func applyObject(ctx context.Context, cc *clusterClients, obj *unstructured.Unstructured) error {
	gvk := obj.GroupVersionKind()
	ri, err := resourceFor(ctx, cc, obj)
	if err != nil {
		return err
	}
	status, hasStatus := obj.Object["status"]
	body := obj.DeepCopy()
	delete(body.Object, "status")
	if _, err := ri.Apply(ctx, obj.GetName(), body, metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
		return fmt.Errorf("apply %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
	}
	if hasStatus {
		withStatus := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": obj.GetAPIVersion(), "kind": obj.GetKind(),
			"metadata": map[string]any{"name": obj.GetName(), "namespace": obj.GetNamespace()},
			"status":   status,
		}}
		if _, err := ri.ApplyStatus(ctx, obj.GetName(), withStatus, metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil {
			return fmt.Errorf("apply status of %s %s/%s: %w", gvk.Kind, obj.GetNamespace(), obj.GetName(), err)
		}
	}
	if gvk.Kind == "CustomResourceDefinition" {
		return waitEstablished(ctx, cc, obj.GetName())
	}
	return nil
}

// resourceFor maps a kind to the client for obj's resource (in its namespace where namespaced), refreshing
// discovery for kinds that were just created.
func resourceFor(ctx context.Context, cc *clusterClients, obj *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := obj.GroupVersionKind()
	var mapping *meta.RESTMapping
	var err error
	for range 40 {
		if mapping, err = cc.mapper.RESTMapping(gvk.GroupKind(), gvk.Version); err == nil {
			break
		}
		cc.mapper.Reset()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	if err != nil {
		return nil, fmt.Errorf("map %s: %w", gvk, err)
	}
	if mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		return cc.dynamic.Resource(mapping.Resource).Namespace(obj.GetNamespace()), nil
	}
	return cc.dynamic.Resource(mapping.Resource), nil
}

// waitEstablished waits until the named CustomResourceDefinition is Established.
func waitEstablished(ctx context.Context, cc *clusterClients, name string) error {
	crds := cc.dynamic.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		crd, err := crds.Get(ctx, name, metav1.GetOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("get CRD %s: %w", name, err)
		}
		if err == nil {
			conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
			for _, c := range conds {
				if m, ok := c.(map[string]any); ok && m["type"] == "Established" && m["status"] == "True" {
					cc.mapper.Reset()
					return nil
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("CRD %s not established after 30s", name)
}
