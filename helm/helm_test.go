package helm

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	chartcommon "helm.sh/helm/v4/pkg/chart/common"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/release/common"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// storedObjects keeps the objects Helm's own drivers write, as a cluster would, and serves them as
// unstructured objects, as cluster.Objects.Get does. Safe for concurrent use.
type storedObjects struct {
	mu      sync.Mutex
	objects map[string]map[string]any // by "resource/namespace/name"
	gets    atomic.Int32
}

func (s *storedObjects) put(t *testing.T, resource string, obj runtime.Object, namespace, name string) {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.objects == nil {
		s.objects = map[string]map[string]any{}
	}
	s.objects[resource+"/"+namespace+"/"+name] = u
}

func (s *storedObjects) Get(_ context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	s.gets.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.objects[gvr.Resource+"/"+namespace+"/"+name]
	if !ok {
		return nil, fmt.Errorf("%s %s/%s not found", gvr.Resource, namespace, name)
	}
	return &unstructured.Unstructured{Object: runtime.DeepCopyJSON(u)}, nil
}

// secretWriter is the Secrets driver's client in a test: it keeps what the driver creates.
type secretWriter struct {
	secretStore
	t     *testing.T
	store *storedObjects
}

func (w secretWriter) Create(_ context.Context, s *corev1.Secret, _ metav1.CreateOptions) (*corev1.Secret, error) {
	w.store.put(w.t, "secrets", s, s.Namespace, s.Name)
	return s, nil
}

// configMapWriter is the ConfigMaps driver's client in a test.
type configMapWriter struct {
	configMapStore
	t     *testing.T
	store *storedObjects
}

func (w configMapWriter) Create(_ context.Context, c *corev1.ConfigMap, _ metav1.CreateOptions) (*corev1.ConfigMap, error) {
	w.store.put(w.t, "configmaps", c, c.Namespace, c.Name)
	return c, nil
}

// testRelease is a release of a chart built in Go, with a default value the user's values override.
func testRelease(name, ns string, version int, status common.Status, chartVersion string) *rspb.Release {
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: "v2", Name: "shop", Version: chartVersion, AppVersion: "2." + chartVersion},
		Values:    map[string]any{"replicas": 1, "image": map[string]any{"tag": "stable"}},
		Templates: []*chartcommon.File{{Name: "templates/cm.yaml", Data: []byte("kind: ConfigMap")}},
	}
	deployed := time.Date(2026, 12, 1, 10, version, 0, 0, time.UTC)
	return &rspb.Release{Name: name, Namespace: ns, Version: version, Chart: ch,
		Config:   map[string]any{"replicas": 3},
		Manifest: "---\n# Source: shop/templates/cm.yaml\nkind: ConfigMap\n",
		Info: &rspb.Info{Status: status, Description: "Upgrade complete", LastDeployed: deployed,
			FirstDeployed: deployed, Notes: "Thank you for installing " + name}}
}

// storeRelease writes rel with Helm's driver d into store, as `helm install` would.
func storeRelease(t *testing.T, store *storedObjects, d Driver, rel *rspb.Release) string {
	t.Helper()
	key := fmt.Sprintf("%s%s.v%d", objectPrefix, rel.Name, rel.Version)
	var err error
	if d == ConfigMaps {
		err = driver.NewConfigMaps(configMapWriter{t: t, store: store}).Create(key, rel)
	} else {
		err = driver.NewSecrets(secretWriter{t: t, store: store}).Create(key, rel)
	}
	if err != nil {
		t.Fatal(err)
	}
	// The drivers leave the namespace to the client they are given: set it as the server would.
	store.mu.Lock()
	defer store.mu.Unlock()
	u := store.objects[d.GVR().Resource+"/"+"/"+key]
	delete(store.objects, d.GVR().Resource+"/"+"/"+key)
	u["metadata"].(map[string]any)["namespace"] = rel.Namespace
	store.objects[d.GVR().Resource+"/"+rel.Namespace+"/"+key] = u
	return key
}

func TestDecodeWithHelmsDrivers(t *testing.T) {
	for _, d := range []Driver{Secrets, ConfigMaps} {
		t.Run(string(d), func(t *testing.T) {
			store := &storedObjects{}
			key := storeRelease(t, store, d, testRelease("web", "shop", 3, common.StatusDeployed, "1.4.0"))
			rel, err := Decode(context.Background(), store, Revision{Release: "web", Namespace: "shop", Number: 3, Driver: d, Object: key})
			if err != nil {
				t.Fatal(err)
			}
			got := Summarize(rel)
			want := Summary{Chart: "shop-1.4.0", AppVersion: "2.1.4.0", Description: "Upgrade complete",
				Deployed: time.Date(2026, 12, 1, 10, 3, 0, 0, time.UTC), Status: "deployed"}
			if !got.Deployed.Equal(want.Deployed) {
				t.Errorf("deployed %v, want %v", got.Deployed, want.Deployed)
			}
			got.Deployed = want.Deployed
			if got != want {
				t.Errorf("summary %+v, want %+v", got, want)
			}
			if rel.Info.Notes != "Thank you for installing web" || rel.Manifest == "" {
				t.Errorf("notes %q manifest %q", rel.Info.Notes, rel.Manifest)
			}
			user, err := Values(rel, false)
			if err != nil || user != "replicas: 3\n" {
				t.Errorf("user values %q, %v", user, err)
			}
			all, err := Values(rel, true)
			if err != nil || all != "image:\n  tag: stable\nreplicas: 3\n" {
				t.Errorf("all values %q, %v", all, err)
			}
			y, err := AsYAML(rel)
			if err != nil || !strings.Contains(y, "\nname: web\n") || !strings.Contains(y, "templates:\n  - templates/cm.yaml\n") ||
				strings.Contains(y, "kind: ConfigMap\n  name:") || strings.Contains(y, "schema") {
				t.Errorf("as YAML (templates left out):\n%s %v", y, err)
			}
		})
	}
}

func TestDecodeRefusesWhatIsNotARelease(t *testing.T) {
	store := &storedObjects{}
	s := &corev1.Secret{TypeMeta: metav1.TypeMeta{Kind: "Secret", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1.web.v1", Namespace: "shop"},
		Data:       map[string][]byte{"release": []byte("not base64 at all!")}}
	store.put(t, "secrets", s, "shop", s.Name)
	_, err := Decode(context.Background(), store, Revision{Release: "web", Namespace: "shop", Number: 1, Driver: Secrets, Object: s.Name})
	if err == nil || !strings.Contains(err.Error(), "decode release shop/web revision 1") {
		t.Fatalf("decoding garbage: %v", err)
	}
	if _, err := Decode(context.Background(), store, Revision{Release: "gone", Namespace: "shop", Number: 1, Driver: Secrets, Object: "x"}); err == nil {
		t.Fatal("decoding a missing object succeeded")
	}
}
