package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	chartutil "helm.sh/helm/v4/pkg/chart/common/util"
	rspb "helm.sh/helm/v4/pkg/release/v1"
	"helm.sh/helm/v4/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// Getter reads one full object; cluster.Objects is one. It blocks for at most a request and must be safe
// for concurrent use.
type Getter interface {
	Get(ctx context.Context, gvr schema.GroupVersionResource, namespace, name string) (*unstructured.Unstructured, error)
}

// Decode reads the object rev is stored in through g and decodes it with Helm's own storage driver (the
// Secrets or the ConfigMaps driver, handed that one object read-only): the release as Helm stored it, its
// chart included. The object's labels are the release's labels, as Helm's drivers set them.
func Decode(ctx context.Context, g Getter, rev Revision) (*rspb.Release, error) {
	u, err := g.Get(ctx, rev.Driver.GVR(), rev.Namespace, rev.Object)
	if err != nil {
		return nil, fmt.Errorf("read release %s revision %d: %w", rev.Key(), rev.Number, err)
	}
	return decodeObject(rev, u)
}

// decodeVersion is Decode, and the Version of the object as read (its UID and resourceVersion, which rev
// lacks when it was listed before its metadata was filled in).
func decodeVersion(ctx context.Context, g Getter, rev Revision) (*rspb.Release, string, error) {
	u, err := g.Get(ctx, rev.Driver.GVR(), rev.Namespace, rev.Object)
	if err != nil {
		return nil, "", fmt.Errorf("read release %s revision %d: %w", rev.Key(), rev.Number, err)
	}
	read := rev
	read.UID, read.ResourceVersion = u.GetUID(), u.GetResourceVersion()
	rel, err := decodeObject(rev, u)
	return rel, read.Version(), err
}

// decodeObject decodes u, the object rev is stored in.
func decodeObject(rev Revision, u *unstructured.Unstructured) (*rspb.Release, error) {
	var (
		stored any
		err    error
	)
	switch rev.Driver {
	case ConfigMaps:
		var cm corev1.ConfigMap
		if err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &cm); err == nil {
			stored, err = driver.NewConfigMaps(configMapStore{oneObject{configMap: &cm}}).Get(rev.Object)
		}
	default:
		var s corev1.Secret
		if err = runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &s); err == nil {
			stored, err = driver.NewSecrets(secretStore{oneObject{secret: &s}}).Get(rev.Object)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("decode release %s revision %d: %w", rev.Key(), rev.Number, err)
	}
	rel, ok := stored.(*rspb.Release)
	if !ok || rel == nil {
		return nil, fmt.Errorf("decode release %s revision %d: stored as %T, not a Helm v1 release", rev.Key(), rev.Number, stored)
	}
	return rel, nil
}

// Summary is what the releases table shows of a decoded revision, kept instead of the release (whose chart
// can weigh megabytes). A plain value.
type Summary struct {
	// Chart is the chart as `helm list` shows it (NAME-VERSION); AppVersion its appVersion.
	Chart, AppVersion string
	// Description is the revision's description ("Install complete", "Upgrade \"x\" failed: …").
	Description string
	// Deployed is when the revision was deployed (Helm's last_deployed); zero when not recorded.
	Deployed time.Time
	// Status is Helm's status of the revision as the payload records it.
	Status string
}

// Summarize is the Summary of rel.
func Summarize(rel *rspb.Release) Summary {
	var s Summary
	if rel.Chart != nil && rel.Chart.Metadata != nil {
		s.Chart = rel.Chart.Metadata.Name + "-" + rel.Chart.Metadata.Version
		s.AppVersion = rel.Chart.Metadata.AppVersion
	}
	if rel.Info != nil {
		s.Description, s.Deployed, s.Status = rel.Info.Description, rel.Info.LastDeployed, rel.Info.Status.String()
	}
	return s
}

// Values is the values of rel as YAML: those the user supplied (`helm get values`), or with all set, every
// value the chart was rendered with, the chart's defaults coalesced under them (`helm get values --all`).
func Values(rel *rspb.Release, all bool) (string, error) {
	vals := rel.Config
	if all {
		if rel.Chart == nil {
			return "", fmt.Errorf("values of %s: the release holds no chart", rel.Name)
		}
		computed, err := chartutil.CoalesceValues(rel.Chart, rel.Config)
		if err != nil {
			return "", fmt.Errorf("values of %s: %w", rel.Name, err)
		}
		vals = computed
	}
	if len(vals) == 0 {
		return "", nil
	}
	out, err := yaml.Marshal(vals)
	if err != nil {
		return "", fmt.Errorf("values of %s: %w", rel.Name, err)
	}
	return string(out), nil
}

// AsYAML is rel as YAML, as Helm stores it, but for its chart: the chart's metadata and the names of its
// templates, not their text nor the chart's files (they are the chart's, not the release's).
func AsYAML(rel *rspb.Release) (string, error) {
	c := *rel
	c.Chart = nil
	raw, err := json.Marshal(&c)
	if err != nil {
		return "", fmt.Errorf("release %s as YAML: %w", rel.Name, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("release %s as YAML: %w", rel.Name, err)
	}
	if rel.Chart != nil {
		ch := map[string]any{"metadata": rel.Chart.Metadata}
		var templates []string
		for _, f := range rel.Chart.Templates {
			templates = append(templates, f.Name)
		}
		if len(templates) > 0 {
			ch["templates"] = templates
		}
		out["chart"] = ch
	}
	b, err := yaml.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("release %s as YAML: %w", rel.Name, err)
	}
	return string(b), nil
}
