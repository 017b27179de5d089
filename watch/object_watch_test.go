package watch

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	clienttesting "k8s.io/client-go/testing"
)

// TestWatchObjectRetries: errors are sent and retried; once the object is read it is followed by a watch.
func TestWatchObjectRetries(t *testing.T) {
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "shop", "resourceVersion": "1"}}}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, obj)
	// The first two reads fail; each read after the first waits until the test has seen the previous event,
	// so that no event replaces an unread one.
	proceed := make(chan struct{})
	gets := 0
	client.PrependReactor("get", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
		gets++
		if gets > 1 {
			<-proceed
		}
		if gets <= 2 {
			return true, nil, apierrors.NewServiceUnavailable("starting")
		}
		return false, nil, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan ObjectEvent, 1)
	w := &objectWatch{res: client.Resource(gvr).Namespace("shop"), gvr: gvr, name: "web", out: out,
		backoff: wait.Backoff{Duration: time.Millisecond, Factor: 2, Steps: 10, Cap: 10 * time.Millisecond}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.run(ctx)
	}()
	next := func(what string) ObjectEvent {
		t.Helper()
		select {
		case ev := <-out:
			return ev
		case <-time.After(5 * time.Second):
			t.Fatalf("no %s event", what)
		}
		return ObjectEvent{}
	}
	for i := 0; i < 2; i++ {
		if ev := next("error"); ev.Err == nil || !strings.Contains(ev.Err.Error(), `get deployments "web": starting`) {
			t.Fatalf("event %d: %+v, want the read error", i, ev)
		}
		proceed <- struct{}{}
	}
	if ev := next("object"); ev.Err != nil || ev.Object.GetName() != "web" {
		t.Fatalf("third event: %+v, want the object", ev)
	}
	waitFor(t, "a watch", func() bool {
		return slices.ContainsFunc(client.Actions(), func(a clienttesting.Action) bool { return a.GetVerb() == "watch" })
	})
	if err := client.Resource(gvr).Namespace("shop").Delete(ctx, "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The watch may first repeat the object as it is (the fake's tracker does): wait for the deletion.
	for ev := next("deletion"); !ev.Deleted; ev = next("deletion") {
		if ev.Err != nil || ev.Object.GetName() != "web" {
			t.Fatalf("after delete: %+v, want the object or its deletion", ev)
		}
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("run did not return after cancel")
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within 5 s", what)
		}
	}
}
