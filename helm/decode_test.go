package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/release/common"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/helm"
	"kscope/helm/helmtest"
)

func TestDecodeWithHelmsDrivers(t *testing.T) {
	for _, d := range []helm.Driver{helm.Secrets, helm.ConfigMaps} {
		t.Run(string(d), func(t *testing.T) {
			store := &helmtest.Store{}
			key := store.Install(t, d, helmtest.Release("web", "shop", 3, common.StatusDeployed, "1.4.0"))
			rel, err := helm.Decode(context.Background(), store, helm.Revision{Release: "web", Namespace: "shop", Number: 3, Driver: d, Object: key})
			if err != nil {
				t.Fatal(err)
			}
			got := helm.Summarize(rel)
			want := helm.Summary{Chart: "shop-1.4.0", AppVersion: "2.1.4.0", Description: "Upgrade complete",
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
			user, err := helm.Values(rel, false)
			if err != nil || user != "replicas: 3\n" {
				t.Errorf("user values %q, %v", user, err)
			}
			all, err := helm.Values(rel, true)
			if err != nil || all != "image:\n  tag: stable\nreplicas: 3\n" {
				t.Errorf("all values %q, %v", all, err)
			}
			y, err := helm.AsYAML(rel)
			if err != nil || !strings.Contains(y, "\nname: web\n") || !strings.Contains(y, "templates:\n  - templates/cm.yaml\n") ||
				strings.Contains(y, "kind: ConfigMap\n  name:") || strings.Contains(y, "schema") {
				t.Errorf("as YAML (templates left out):\n%s %v", y, err)
			}
		})
	}
}

func TestDecodeRefusesWhatIsNotARelease(t *testing.T) {
	store := &helmtest.Store{}
	s := &corev1.Secret{TypeMeta: metav1.TypeMeta{Kind: "Secret", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1.web.v1", Namespace: "shop"},
		Data:       map[string][]byte{"release": []byte("not base64 at all!")}}
	store.Put(t, "secrets", s, "shop", s.Name)
	_, err := helm.Decode(context.Background(), store, helm.Revision{Release: "web", Namespace: "shop", Number: 1, Driver: helm.Secrets, Object: s.Name})
	if err == nil || !strings.Contains(err.Error(), "decode release shop/web revision 1") {
		t.Fatalf("decoding garbage: %v", err)
	}
	if _, err := helm.Decode(context.Background(), store, helm.Revision{Release: "gone", Namespace: "shop", Number: 1, Driver: helm.Secrets, Object: "x"}); err == nil {
		t.Fatal("decoding a missing object succeeded")
	}
}
