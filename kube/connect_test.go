package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestConnectAsksVersionBesideDiscovery: on a cold start the server's version and the discovery documents
// are asked at once, not one after the other (issue 51): this server answers /version only once discovery
// has been asked for (within 3 s; else it fails).
func TestConnectAsksVersionBesideDiscovery(t *testing.T) {
	bodies := map[string]string{
		"/api":  `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}`,
		"/apis": `{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`,
		"/api/v1": `{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod",` +
			`"namespaced":true,"kind":"Pod","verbs":["get","list","watch"],"shortNames":["po"]}]}`,
	}
	discovered := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/version" {
			select {
			case <-discovered:
				fmt.Fprint(w, `{"major":"1","minor":"37","gitVersion":"v1.37.2"}`)
			case <-time.After(3 * time.Second):
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"version asked before discovery","code":500}`)
			}
			return
		}
		if r.URL.Path == "/api" {
			once.Do(func() { close(discovered) })
		}
		body, ok := bodies[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
			return
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ts.Close)
	c, err := Connect(context.Background(), testFlags(t, ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if v := c.Info().ServerVersion; v != "v1.37.2" {
		t.Errorf("server version %q, want v1.37.2", v)
	}
}
