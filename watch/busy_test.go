package watch

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// TestSourceSaysServerBusyAndHonoursRetryAfter: the server answers the table's first lists 429 Too Many
// Requests with Retry-After: 1 (API Priority and Fairness rejecting a big LIST). The source waits the second
// each time (no tight loop: one list per answer), says "server busy, retrying in 1 s" meanwhile, then syncs
// and drops the note.
func TestSourceSaysServerBusyAndHonoursRetryAfter(t *testing.T) {
	const rejections = 2
	f := newFakeAPI(t)
	f.set("shop/a", "Running", nil, false)
	var mu sync.Mutex
	var lists []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("watch") != "true" && r.URL.Query().Get("includeObject") == "None" {
			mu.Lock()
			lists = append(lists, time.Now())
			n := len(lists)
			mu.Unlock()
			if n <= rejections {
				w.Header().Set("Retry-After", "1")
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"TooManyRequests","code":429,"message":"Too many requests, please try again later."}`))
				return
			}
		}
		f.serve(w, r)
	}))
	t.Cleanup(srv.Close)
	s, err := NewSource(&rest.Config{Host: srv.URL},
		Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true, Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	start := time.Now()
	s.Start(t.Context())
	waitFor(t, "the busy note", func() bool { return s.State().Note == "server busy, retrying in 1 s" })
	if st := s.State(); st.Phase != Listing {
		t.Fatalf("while the server is busy: %s, want listing (client-go retries the list itself)", st.Phase)
	}
	waitFor(t, "the list after the rejections", func() bool { return s.State().Phase == Synced })
	if took := time.Since(start); took < rejections*time.Second {
		t.Fatalf("synced %s after two answers of Retry-After: 1, want at least %s", took, rejections*time.Second)
	}
	mu.Lock()
	n := len(lists)
	for i := 1; i < min(n, rejections+1); i++ {
		if gap := lists[i].Sub(lists[i-1]); gap < time.Second {
			t.Errorf("list %d came %s after a 429 with Retry-After: 1", i+1, gap)
		}
	}
	mu.Unlock()
	if n != rejections+1 {
		t.Errorf("%d table lists for %d rejections, want %d", n, rejections, rejections+1)
	}
	waitFor(t, "the note cleared", func() bool { return !strings.Contains(s.State().Note, "busy") })
}

func TestBusyNote(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   string
	}{
		{"3", "server busy, retrying in 3 s"},
		{" 1 ", "server busy, retrying in 1 s"},
		{"", "server busy (429 Too Many Requests), retrying"},
		{"Wed, 21 Oct 2015 07:28:00 GMT", "server busy (429 Too Many Requests), retrying"},
		{"-2", "server busy (429 Too Many Requests), retrying"},
	} {
		if got := busyNote(retryAfter(tc.header)); got != tc.want {
			t.Errorf("Retry-After %q: %q, want %q", tc.header, got, tc.want)
		}
	}
}
