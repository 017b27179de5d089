// Package helmtest stands for a cluster holding Helm releases in the tests of what reads them: a Store of
// the objects Helm's own storage drivers write (served as cluster.Objects.Get serves them), the rows their
// live sources list (Sources, over watch.StaticSource), and a release of a chart built in Go.
package helmtest

import (
	"context"
	"fmt"
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
	"k8s.io/apimachinery/pkg/types"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"kscope/cluster"
	"kscope/helm"
	"kscope/watch"
)

// Store keeps the objects Helm's drivers write, as a cluster would, and serves them as unstructured objects,
// as cluster.Objects.Get does (a helm.Getter). Safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	objects map[string]map[string]any // by "resource/namespace/name"
	gets    atomic.Int32
}

// Put stores obj, an object of resource, in namespace under name.
func (s *Store) Put(t testing.TB, resource string, obj runtime.Object, namespace, name string) {
	t.Helper()
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	u["metadata"].(map[string]any)["namespace"] = namespace
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.objects == nil {
		s.objects = map[string]map[string]any{}
	}
	s.objects[resource+"/"+namespace+"/"+name] = u
}

// Get implements helm.Getter.
func (s *Store) Get(_ context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error) {
	s.gets.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.objects[gvr.Resource+"/"+namespace+"/"+name]
	if !ok {
		return nil, fmt.Errorf("%s %s/%s not found", gvr.Resource, namespace, name)
	}
	return &unstructured.Unstructured{Object: runtime.DeepCopyJSON(u)}, nil
}

// Gets counts the Get calls so far.
func (s *Store) Gets() int { return int(s.gets.Load()) }

// Install stores rel with Helm's driver d, as `helm install` or `helm upgrade` would, and returns the name of
// the object it is stored in.
func (s *Store) Install(t testing.TB, d helm.Driver, rel *rspb.Release) string {
	t.Helper()
	key := fmt.Sprintf("sh.helm.release.v1.%s.v%d", rel.Name, rel.Version)
	var err error
	if d == helm.ConfigMaps {
		err = driver.NewConfigMaps(configMapWriter{t: t, store: s, ns: rel.Namespace}).Create(key, rel)
	} else {
		err = driver.NewSecrets(secretWriter{t: t, store: s, ns: rel.Namespace}).Create(key, rel)
	}
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// Row is the row of the object key of d in namespace ns as the live source of d's objects lists it, with uid
// and resourceVersion rv; the object Get reads has them too, as the server's has (none given: none set).
func (s *Store) Row(d helm.Driver, ns, key, uid, rv string) *watch.Row {
	s.mu.Lock()
	defer s.mu.Unlock()
	u := s.objects[d.GVR().Resource+"/"+ns+"/"+key]
	meta := u["metadata"].(map[string]any)
	if uid != "" {
		meta["uid"] = uid
	}
	if rv != "" {
		meta["resourceVersion"] = rv
	}
	labels := map[string]string{}
	for k, v := range u["metadata"].(map[string]any)["labels"].(map[string]any) {
		labels[k] = v.(string)
	}
	return &watch.Row{Namespace: ns, Name: key, UID: types.UID(uid), ResourceVersion: rv, Labels: labels}
}

// secretWriter is the Secrets driver's client: it keeps what the driver creates; nothing else is called.
type secretWriter struct {
	typedcorev1.SecretInterface
	t     testing.TB
	store *Store
	ns    string
}

func (w secretWriter) Create(_ context.Context, s *corev1.Secret, _ metav1.CreateOptions) (*corev1.Secret, error) {
	w.store.Put(w.t, "secrets", s, w.ns, s.Name)
	return s, nil
}

// configMapWriter is the ConfigMaps driver's client.
type configMapWriter struct {
	typedcorev1.ConfigMapInterface
	t     testing.TB
	store *Store
	ns    string
}

func (w configMapWriter) Create(_ context.Context, c *corev1.ConfigMap, _ metav1.CreateOptions) (*corev1.ConfigMap, error) {
	w.store.Put(w.t, "configmaps", c, w.ns, c.Name)
	return c, nil
}

// Release is revision version of release name in ns, of chart "shop" at chartVersion (appVersion
// "2."+chartVersion; default values replicas 1, image.tag stable; one template), with the user's value
// replicas 3, deployed at 10:version on 2026-12-01 UTC.
func Release(name, ns string, version int, status common.Status, chartVersion string) *rspb.Release {
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

// Sources hands out static sources standing for the server's lists (a helm.SourceMaker), one per resource,
// and refuses a list of Helm's objects without Helm's owner selector. Safe for concurrent use.
type Sources struct {
	mu    sync.Mutex
	parts map[string]*watch.StaticSource
}

// NewSource implements helm.SourceMaker.
func (m *Sources) NewSource(spec watch.Spec) (cluster.RowSource, error) {
	if spec.LabelSelector != helm.OwnerSelector {
		return nil, fmt.Errorf("helm objects listed without the owner selector: %q", spec.LabelSelector)
	}
	s := watch.NewStaticSource(spec, nil)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.parts == nil {
		m.parts = map[string]*watch.StaticSource{}
	}
	m.parts[spec.GVR.Resource] = s
	return s, nil
}

// Part is the last source made of resource ("secrets", "configmaps"), nil before.
func (m *Sources) Part(resource string) *watch.StaticSource {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.parts[resource]
}
