package kube

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"

	"kscope/cluster"
)

// TestPortForwardRefusesAnotherUID: a forward asked for a pod's UID is refused, in one line and before any
// stream is opened, when the pod of that name has another UID (it was re-created); the pod's own UID passes
// that check (and then fails only at the stream, which the test server does not serve).
func TestPortForwardRefusesAnotherUID(t *testing.T) {
	srv, requests := podServer(t)
	c := testCluster(&rest.Config{Host: srv.URL})
	for _, tc := range []struct {
		name    string
		uid     string
		refused bool
	}{
		{"another pod of that name", "u-web-1-before", true},
		{"the pod asked for", "u-web-1", false},
	} {
		_, _, err := c.PortForward(context.Background(), cluster.PortForwardRequest{Namespace: "shop", Pod: "web-1",
			UID: types.UID(tc.uid), Address: "127.0.0.1", PodPort: 8080})
		const want = "port-forward shop/web-1:8080: pod shop/web-1 was re-created (uid changed)"
		if got := err != nil && err.Error() == want; got != tc.refused {
			t.Errorf("%s: %v; refused %v, want %v", tc.name, err, got, tc.refused)
		}
	}
	streams := 0
	for _, r := range requests() {
		if strings.HasSuffix(r, "/portforward") {
			streams++
		}
	}
	if streams != 1 {
		t.Errorf("%d port-forward streams asked for, want 1 (the pod's own UID only)", streams)
	}
}
