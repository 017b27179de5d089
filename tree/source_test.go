package tree

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	metadatafake "k8s.io/client-go/metadata/fake"
	clienttesting "k8s.io/client-go/testing"
)

var secrets = Kind{GVR: schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, Kind: "Secret", Namespaced: true}

func meta(k Kind, ns, name string, owner *metav1.PartialObjectMetadata) *metav1.PartialObjectMetadata {
	m := &metav1.PartialObjectMetadata{
		TypeMeta:   metav1.TypeMeta{APIVersion: k.GVR.GroupVersion().String(), Kind: k.Kind},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "/" + name)},
	}
	if owner != nil {
		yes := true
		m.OwnerReferences = []metav1.OwnerReference{{APIVersion: owner.APIVersion, Kind: owner.Kind, Name: owner.Name,
			UID: owner.UID, Controller: &yes}}
	}
	return m
}

// waitFor waits (on Notify) until cond holds, failing after 10 s.
func waitFor(t *testing.T, s *Source, what string, cond func() bool) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case <-s.Notify():
		case <-time.After(50 * time.Millisecond): // (the sync check polls)
		case <-deadline:
			t.Fatalf("timed out waiting for %s; progress %+v", what, s.Progress())
		}
	}
}

func TestSourceListsWatchesAndNamesForbiddenKinds(t *testing.T) {
	dep := meta(deployments, "ns", "web", nil)
	rs := meta(replicasets, "ns", "web-1", dep)
	pod := meta(pods, "ns", "web-1-a", rs)
	elsewhere := meta(pods, "other", "web-1-z", rs)
	scheme := metadatafake.NewTestScheme()
	metav1.AddMetaToScheme(scheme)
	client := metadatafake.NewSimpleMetadataClient(scheme, dep, rs, pod, elsewhere)
	client.PrependReactor("list", "secrets", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(secrets.GVR.GroupResource(), "", nil)
	})
	client.PrependReactor("list", "clusterwidgets", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(widgets.GVR.GroupResource(), "")
	})
	client.PrependReactor("list", "configmaps", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewInternalError(errors.New("etcd is away"))
	})
	src := NewSource(client, []Kind{deployments, replicasets, pods, secrets, widgets}, "ns", nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src.Start(ctx)
	defer src.Stop()

	waitFor(t, src, "a complete listing", func() bool { return src.Progress().Complete > 0 })
	p := src.Progress()
	if p.Total != 5 || p.Listed != 5 || len(p.NotVisible) != 1 || p.NotVisible[0] != "secrets" ||
		len(p.Failed) != 1 || !strings.HasPrefix(p.Failed[0], "clusterwidgets.example.com: ") {
		t.Fatalf("progress %+v", p)
	}

	// A kind whose list fails for a while is retried, and named meanwhile; the listing is not complete.
	retry := NewSource(client, []Kind{pods, configmaps}, "ns", nil, nil)
	retry.Start(ctx)
	defer retry.Stop()
	waitFor(t, retry, "pods listed, configmaps retried", func() bool {
		p := retry.Progress()
		return len(p.Retrying) == 1 && p.Listed == 1
	})
	if p := retry.Progress(); p.Complete != 0 || p.Listed != 1 || !strings.Contains(p.Retrying[0], "etcd is away") {
		t.Fatalf("progress %+v", p)
	}
	nodes := Build(src.Objects(), dep.UID)
	if got := len(nodes); got != 3 {
		t.Fatalf("tree of %d nodes, want 3 (the pod in another namespace is not listed): %v", got, lines(nodes))
	}

	second := meta(pods, "ns", "web-1-b", rs)
	if err := client.Tracker().Create(pods.GVR, second, "ns"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, src, "the new pod", func() bool { return len(Build(src.Objects(), dep.UID)) == 4 })
	if err := client.Tracker().Delete(pods.GVR, "ns", "web-1-a"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, src, "the deleted pod gone", func() bool { return len(Build(src.Objects(), dep.UID)) == 3 })
}

// TestSourceStopBeforeStart: a Source stopped before Start never starts (no request is sent) and its Done is
// closed, as every source's Lifecycle.
func TestSourceStopBeforeStart(t *testing.T) {
	scheme := metadatafake.NewTestScheme()
	metav1.AddMetaToScheme(scheme)
	client := metadatafake.NewSimpleMetadataClient(scheme)
	src := NewSource(client, []Kind{pods}, "ns", nil, nil)
	if src.Done() != nil {
		t.Fatal("Done before Start is not nil")
	}
	src.Stop()
	src.Start(context.Background())
	select {
	case <-src.Done():
	default:
		t.Fatal("Done not closed after Stop")
	}
	if n := len(client.Actions()); n != 0 {
		t.Fatalf("%d requests after Stop then Start", n)
	}
	src.Stop()
}
