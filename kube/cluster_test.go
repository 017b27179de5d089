package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"kscope/cluster"
)

// fakeAPIServer serves /version and legacy discovery with one resource (pods); every other path is a 404
// Status, as for a cluster without CRDs or APIServices the user may list. versionStatus, when not 200, is the
// status /version answers with.
func fakeAPIServer(t *testing.T, versionStatus int) *httptest.Server {
	t.Helper()
	bodies := map[string]string{
		"/version": `{"major":"1","minor":"37","gitVersion":"v1.37.2"}`,
		"/api":     `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}`,
		"/apis":    `{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`,
		"/api/v1": `{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"pods","singularName":"pod",` +
			`"namespaced":true,"kind":"Pod","verbs":["get","list","watch"],"shortNames":["po"]}]}`,
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/version" && versionStatus != http.StatusOK {
			w.WriteHeader(versionStatus)
			fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"%s","reason":"%s","code":%d}`,
				http.StatusText(versionStatus), strings.ReplaceAll(http.StatusText(versionStatus), " ", ""), versionStatus)
			return
		}
		body, ok := bodies[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","code":404}`)
			return
		}
		fmt.Fprint(w, body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// testFlags returns connection flags for a kubeconfig with contexts "dev" (the current one, namespace shop)
// and "other", both for server, and a private discovery cache.
func testFlags(t *testing.T, server string) *genericclioptions.ConfigFlags {
	t.Helper()
	dir := t.TempDir()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["dev-cluster"] = &clientcmdapi.Cluster{Server: server}
	cfg.AuthInfos["dev-user"] = &clientcmdapi.AuthInfo{Token: "secret"}
	cfg.Contexts["dev"] = &clientcmdapi.Context{Cluster: "dev-cluster", AuthInfo: "dev-user", Namespace: "shop"}
	cfg.Contexts["other"] = &clientcmdapi.Context{Cluster: "dev-cluster", AuthInfo: "dev-user"}
	cfg.CurrentContext = "dev"
	path := filepath.Join(dir, "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	f := NewConfigFlags()
	*f.KubeConfig, *f.CacheDir = path, filepath.Join(dir, "cache")
	return f
}

// waitDone fails the test unless c's live refresh returns within 5 s.
func waitDone(t *testing.T, c *Cluster, after string) {
	t.Helper()
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the catalog's live refresh still runs 5 s after %s", after)
	}
}

func TestConnect(t *testing.T) {
	ts := fakeAPIServer(t, http.StatusOK)
	c, err := Connect(context.Background(), testFlags(t, ts.URL), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := cluster.Info{Context: "dev", Cluster: "dev-cluster", User: "dev-user", Server: ts.URL,
		ServerVersion: "v1.37.2", Namespace: "shop", Contexts: []string{"dev", "other"}}
	if got := c.Info(); !reflect.DeepEqual(got, want) {
		t.Errorf("Info() = %+v\nwant %+v", got, want)
	}
	c.SetAllNamespaces(true)
	if !c.Info().AllNamespaces {
		t.Error("SetAllNamespaces(true): Info().AllNamespaces false")
	}
	if r, err := c.Catalog().Resolve(context.Background(), "po"); err != nil || r.Name != "pods" {
		t.Errorf("Resolve(po) = %v, %v; want pods", r.Name, err)
	}
	c.Close()
	waitDone(t, c, "Close")
	c.Close() // idempotent
}

func TestConnectContext(t *testing.T) {
	ts := fakeAPIServer(t, http.StatusOK)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := Connect(ctx, ContextFlags(testFlags(t, ts.URL), "other"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if info := c.Info(); info.Context != "other" || info.Namespace != "default" {
		t.Errorf("context %q namespace %q, want other, default", info.Context, info.Namespace)
	}
	cancel()
	waitDone(t, c, "the Connect context ended")
}

func TestConnectErrors(t *testing.T) {
	unauthorized := fakeAPIServer(t, http.StatusUnauthorized)
	tests := []struct {
		name  string
		flags func(t *testing.T) *genericclioptions.ConfigFlags
		want  string
	}{
		{"refused credentials", func(t *testing.T) *genericclioptions.ConfigFlags { return testFlags(t, unauthorized.URL) },
			"the API server at " + unauthorized.URL + " refused the credentials: the server has asked for the client to provide credentials"},
		{"unreachable", func(t *testing.T) *genericclioptions.ConfigFlags { return testFlags(t, "https://127.0.0.1:1") },
			"cannot reach the API server at https://127.0.0.1:1: connection refused"},
		{"unknown context", func(t *testing.T) *genericclioptions.ConfigFlags {
			return ContextFlags(testFlags(t, "https://127.0.0.1:1"), "absent")
		}, `kubeconfig: context "absent" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Connect(context.Background(), tt.flags(t), nil)
			if err == nil {
				c.Close()
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("error %q\nwant  %q", err, tt.want)
			}
		})
	}
}
