package helmtest

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	chartcommon "helm.sh/helm/v4/pkg/chart/common"
	chartutil "helm.sh/helm/v4/pkg/chart/common/util"
	chart "helm.sh/helm/v4/pkg/chart/v2"
	"helm.sh/helm/v4/pkg/engine"
	"helm.sh/helm/v4/pkg/release/common"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage"
	"helm.sh/helm/v4/pkg/storage/driver"
	"k8s.io/client-go/kubernetes"

	"kscope/helm"
)

// Revision is one revision of a release to write into a real cluster by Helm's own SDK (WriteRevision): a
// chart built here (Chart) rendered by Helm's engine with the revision's values. A plain value.
type Revision struct {
	Name, Namespace string
	// Driver is where Helm stores it (helm.Secrets, helm.ConfigMaps).
	Driver       helm.Driver
	Number       int
	ChartVersion string
	Status       common.Status
	Description  string
	Values       map[string]any
	// Deployed is when the revision was deployed.
	Deployed time.Time
}

// Chart is chart name at version (appVersion "v"+version): a ConfigMap named after the release and notes,
// rendered from the values replicas, greeting and image.
func Chart(name, version string) *chart.Chart {
	return &chart.Chart{
		Metadata: &chart.Metadata{APIVersion: "v2", Name: name, Version: version, AppVersion: "v" + version,
			Description: "The kscope demo's " + name + " chart", Type: "application"},
		Values: map[string]any{"replicas": 1, "greeting": "hi", "image": map[string]any{"repository": "example/" + name, "tag": version}},
		Templates: []*chartcommon.File{
			{Name: "templates/configmap.yaml", Data: []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-config
  namespace: {{ .Release.Namespace }}
  labels:
    app.kubernetes.io/managed-by: Helm
    app.kubernetes.io/instance: {{ .Release.Name }}
    helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
  annotations:
    meta.helm.sh/release-name: {{ .Release.Name }}
    meta.helm.sh/release-namespace: {{ .Release.Namespace }}
data:
  replicas: {{ .Values.replicas | quote }}
  greeting: {{ .Values.greeting | quote }}
  image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
`)},
			{Name: "templates/NOTES.txt", Data: []byte(`{{ .Chart.Name }} {{ .Chart.AppVersion }} is installed as {{ .Release.Name }} (revision {{ .Release.Revision }}).
It runs {{ .Values.replicas }} replica(s); its settings are in ConfigMap {{ .Release.Namespace }}/{{ .Release.Name }}-config.
`)},
		},
	}
}

// Release is r as Helm stores it: its chart (Chart) rendered by Helm's engine with r's values, the manifest
// every template but the notes (each under its "# Source:" line, as Helm writes it), the notes apart.
func (r Revision) Release() (*rspb.Release, error) {
	ch := Chart(r.Name, r.ChartVersion)
	vals, err := chartutil.ToRenderValues(ch, r.Values, chartcommon.ReleaseOptions{Name: r.Name, Namespace: r.Namespace,
		Revision: r.Number, IsInstall: r.Number == 1, IsUpgrade: r.Number > 1}, chartcommon.DefaultCapabilities)
	if err != nil {
		return nil, fmt.Errorf("render release %s/%s revision %d: %w", r.Namespace, r.Name, r.Number, err)
	}
	files, err := engine.Render(ch, vals)
	if err != nil {
		return nil, fmt.Errorf("render release %s/%s revision %d: %w", r.Namespace, r.Name, r.Number, err)
	}
	var manifest strings.Builder
	notes := ""
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if strings.HasSuffix(name, "NOTES.txt") {
			notes = files[name]
			continue
		}
		fmt.Fprintf(&manifest, "---\n# Source: %s\n%s\n", name, strings.TrimSpace(files[name]))
	}
	deployed := r.Deployed.Truncate(time.Second)
	return &rspb.Release{Name: r.Name, Namespace: r.Namespace, Version: r.Number, Chart: ch, Config: r.Values,
		Manifest: manifest.String(), Info: &rspb.Info{FirstDeployed: deployed, LastDeployed: deployed,
			Status: r.Status, Description: r.Description, Notes: notes}}, nil
}

// WriteRevision stores r in the cluster client reaches through Helm's storage (its Secrets or ConfigMaps
// driver), as `helm install` or `helm upgrade` stores a revision, and returns the release written. A revision
// stored already is left as it is: it returns the release and written false.
func WriteRevision(client kubernetes.Interface, r Revision) (rel *rspb.Release, written bool, err error) {
	rel, err = r.Release()
	if err != nil {
		return nil, false, err
	}
	var d driver.Driver = driver.NewSecrets(client.CoreV1().Secrets(r.Namespace))
	if r.Driver == helm.ConfigMaps {
		d = driver.NewConfigMaps(client.CoreV1().ConfigMaps(r.Namespace))
	}
	switch err := storage.Init(d).Create(rel); {
	case errors.Is(err, driver.ErrReleaseExists):
		return rel, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("store release %s/%s revision %d: %w", r.Namespace, r.Name, r.Number, err)
	}
	return rel, true, nil
}

// Demo is the demo's releases (`make seed`), oldest revision first, deployed at their ages before now:
// shop/storefront has three revisions (the last deployed), shop/payments a failed upgrade over its install,
// data/cache is stored in ConfigMaps.
func Demo(now time.Time) []Revision {
	at := func(ago time.Duration) time.Time { return now.Add(-ago) }
	return []Revision{
		{"storefront", "shop", helm.Secrets, 1, "1.0.0", common.StatusSuperseded, "Install complete", map[string]any{"replicas": 1, "greeting": "hello"}, at(3 * time.Hour)},
		{"storefront", "shop", helm.Secrets, 2, "1.1.0", common.StatusSuperseded, "Upgrade complete", map[string]any{"replicas": 2, "greeting": "hello"}, at(2 * time.Hour)},
		{"storefront", "shop", helm.Secrets, 3, "1.2.0", common.StatusDeployed, "Upgrade complete", map[string]any{"replicas": 3, "greeting": "welcome"}, at(10 * time.Minute)},
		{"payments", "shop", helm.Secrets, 1, "0.3.0", common.StatusDeployed, "Install complete", map[string]any{"replicas": 2}, at(90 * time.Minute)},
		{"payments", "shop", helm.Secrets, 2, "0.4.0", common.StatusFailed, `Upgrade "payments" failed: context deadline exceeded`, map[string]any{"replicas": 4}, at(5 * time.Minute)},
		{"cache", "data", helm.ConfigMaps, 1, "2.5.1", common.StatusDeployed, "Install complete", map[string]any{"replicas": 1, "greeting": "cached"}, at(40 * time.Minute)},
	}
}

// Bulk is releases releases of revisions revisions each in namespace (the Helm bench's load): release-NNNN,
// every revision but the last superseded, a second apart, the last deployed.
func Bulk(namespace string, releases, revisions int, now time.Time) []Revision {
	var out []Revision
	for i := range releases {
		for n := 1; n <= revisions; n++ {
			status := common.StatusSuperseded
			if n == revisions {
				status = common.StatusDeployed
			}
			out = append(out, Revision{Name: fmt.Sprintf("release-%04d", i), Namespace: namespace, Driver: helm.Secrets,
				Number: n, ChartVersion: fmt.Sprintf("1.%d.0", n), Status: status, Description: "Upgrade complete",
				Values: map[string]any{"replicas": n}, Deployed: now.Add(time.Duration(n-revisions) * time.Second)})
		}
	}
	return out
}

// ManifestDocuments splits a rendered manifest into its documents (without their "# Source:" lines' separators),
// the objects a release's deployed revision puts in the cluster.
func ManifestDocuments(manifest string) []string {
	var out []string
	for _, doc := range strings.Split(manifest, "---\n") {
		if strings.TrimSpace(doc) != "" {
			out = append(out, doc)
		}
	}
	return out
}
