package ui

import (
	"testing"
	"time"

	"kscope/watch"
)

func TestPodsInSeveralNamespaces(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.command("pods shop,data")
	h.eventually("pods(shop,data)[4]")
	h.contains("NAMESPACE")
	h.contains("data        db-0")
	h.contains("shop        web-7d9f-abcde")
	h.eventually("synced  4/4")

	// live: each namespace's changes reach the one table
	var shop *watch.StaticSource
	h.cluster.mu.Lock()
	for _, s := range h.cluster.sources {
		if s.Spec().Namespace == "shop" && s.Spec().GVR.Resource == "pods" {
			shop = s
		}
	}
	h.cluster.mu.Unlock()
	shop.Put(&watch.Row{Key: "shop/new-1", Namespace: "shop", Name: "new-1", Created: t0,
		Cells: []string{"new-1", "0/1", "Pending", "0", "<age>", "<none>", "<none>"}})
	h.eventually("pods(shop,data)[5]")
	h.eventually("shop        new-1")
	shop.Delete("shop/web-7d9f-fghij")
	h.advance(5 * time.Second) // past the dimmed ghost
	h.eventually("pods(shop,data)[4]")

	// filter and sort over both namespaces
	h.typeText("/db-0|new-1\n")
	h.eventually("pods(shop,data)[2]")

	// the sources stop with the table
	h.command("deploy")
	h.eventually("deployments(shop)")
	h.until("the namespaces' sources stopped", func() bool {
		h.cluster.mu.Lock()
		defer h.cluster.mu.Unlock()
		for _, s := range h.cluster.sources {
			if s.Spec().GVR.Resource == "pods" && s.Spec().Namespace != "" && s.Started() && !s.Stopped() {
				return false
			}
		}
		return true
	})
}

func TestResourceInNamespacesRefusesBadInput(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.command("pods shop,Bad_NS")
	h.eventually(`invalid namespace "Bad_NS"`)
	h.command("ns shop,data")
	h.command("namespaces shop,data")
	h.eventually("namespaces is cluster-scoped")
	h.command("pods data")
	h.eventually("pods(data)[1]")
	h.contains("Namespace: data")
}
