package ui

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// absentNamespaces is the fixture cluster where no namespace exists (a Get of one is NotFound), counting
// those Gets.
type absentNamespaces struct {
	*fakeCluster
	gets atomic.Int32
}

func (c *absentNamespaces) Get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	if gvr.Resource != "namespaces" {
		return c.fakeCluster.Get(ctx, gvr, ns, name)
	}
	c.gets.Add(1)
	return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
}

// TestNamespaceCheckedOnlyWhenTheStartTableIsEmpty: the namespace a session starts in is asked about only
// when the start table shows none of its rows once settled, or at once when no table opens at start (issue
// 51: a start of one table asked before its first list); a missing one is said on the prompt line.
func TestNamespaceCheckedOnlyWhenTheStartTableIsEmpty(t *testing.T) {
	tests := []struct {
		name, namespace, resource string
		gets                      int32
	}{
		{"a start table with rows", "shop", "pods", 0},
		{"an empty start table", "nowhere", "pods", 1},
		{"no start table", "nowhere", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fc := fixtureCluster()
			fc.info.Namespace = tt.namespace
			c := &absentNamespaces{fakeCluster: fc}
			h := start(t, 120, 20, func(o *Options) { o.Cluster, o.Resource = c, tt.resource })
			if tt.gets > 0 {
				h.eventually(`namespace "` + tt.namespace + `" not found`)
			} else {
				h.eventually("pods(" + tt.namespace + ")[")
				time.Sleep(200 * time.Millisecond) // (the settled table's check, were it asked for)
				h.sync()
			}
			if n := c.gets.Load(); n != tt.gets {
				t.Errorf("%d questions about namespace %s, want %d", n, tt.namespace, tt.gets)
			}
		})
	}
}
