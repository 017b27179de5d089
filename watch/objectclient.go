package watch

import (
	"context"
	"errors"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// connectionHooks are told how an informer's list and watch requests go, for the source's phase.
type connectionHooks struct {
	// connected is called after each successful list or watch request.
	connected func()
	// disconnected is called when a watch request fails, or its stream reports an error (a broken stream,
	// 410 Gone): the reflector then retries without always reporting it as a watch error.
	disconnected func(error)
}

// observedClient is a dynamic client whose lists and watches report to hooks; the dynamic informer is built
// over it. Everything else is the wrapped client's.
type observedClient struct {
	dynamic.Interface
	hooks connectionHooks
}

func (c observedClient) Resource(gvr schema.GroupVersionResource) dynamic.NamespaceableResourceInterface {
	return observedResource{NamespaceableResourceInterface: c.Interface.Resource(gvr), hooks: c.hooks}
}

type observedResource struct {
	dynamic.NamespaceableResourceInterface
	hooks connectionHooks
}

func (r observedResource) Namespace(ns string) dynamic.ResourceInterface {
	return observedNamespace{ResourceInterface: r.NamespaceableResourceInterface.Namespace(ns), hooks: r.hooks}
}

func (r observedResource) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	return observedList(ctx, r.NamespaceableResourceInterface, opts, r.hooks)
}

func (r observedResource) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return observedWatch(ctx, r.NamespaceableResourceInterface, opts, r.hooks)
}

type observedNamespace struct {
	dynamic.ResourceInterface
	hooks connectionHooks
}

func (r observedNamespace) List(ctx context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	return observedList(ctx, r.ResourceInterface, opts, r.hooks)
}

func (r observedNamespace) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return observedWatch(ctx, r.ResourceInterface, opts, r.hooks)
}

func observedList(ctx context.Context, ri dynamic.ResourceInterface, opts metav1.ListOptions, h connectionHooks) (*unstructured.UnstructuredList, error) {
	list, err := ri.List(ctx, opts)
	if err == nil {
		h.connected()
	}
	return list, err
}

// observedWatch opens a watch and passes its events on, telling the hooks about an ERROR event.
func observedWatch(ctx context.Context, ri dynamic.ResourceInterface, opts metav1.ListOptions, h connectionHooks) (watch.Interface, error) {
	w, err := ri.Watch(ctx, opts)
	if err != nil {
		if ctx.Err() == nil {
			h.disconnected(err)
		}
		return nil, err
	}
	h.connected()
	return watch.Filter(w, func(ev watch.Event) (watch.Event, bool) {
		if ev.Type == watch.Error && ctx.Err() == nil {
			h.disconnected(watchEventError(ev))
		}
		return ev, true
	}), nil
}

// watchEventError is the error an ERROR event carries (a Status, typed or unstructured).
func watchEventError(ev watch.Event) error {
	if ev.Object == nil {
		return errors.New("watch stream: error event")
	}
	return apierrors.FromObject(ev.Object)
}

// IsWatchListSemanticsUnSupported passes on what the wrapped client tells the reflector about streaming lists
// (a client that says nothing supports them).
func (c observedClient) IsWatchListSemanticsUnSupported() bool {
	u, ok := c.Interface.(interface{ IsWatchListSemanticsUnSupported() bool })
	return ok && u.IsWatchListSemanticsUnSupported()
}
