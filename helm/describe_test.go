package helm_test

import (
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/release/common"
	rspb "helm.sh/helm/v4/pkg/release/v1"

	"kscope/helm"
	"kscope/helm/helmtest"
)

func TestDescribe(t *testing.T) {
	rel, err := helmtest.Revision{Name: "web", Namespace: "shop", Driver: helm.Secrets, Number: 2, ChartVersion: "1.1.0",
		Status: common.StatusDeployed, Description: "Upgrade complete", Values: map[string]any{"replicas": 2},
		Deployed: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)}.Release()
	if err != nil {
		t.Fatal(err)
	}
	rel.Hooks = []*rspb.Hook{{Name: "web-migrate", Kind: "Job", Events: []rspb.HookEvent{rspb.HookPreUpgrade},
		LastRun: rspb.HookExecution{Phase: rspb.HookPhaseSucceeded, CompletedAt: time.Date(2026, 12, 1, 9, 59, 0, 0, time.UTC)}}}
	want := `Name:           web
Namespace:      shop
Revision:       2
Status:         deployed
Description:    Upgrade complete
Chart:          web-1.1.0
App Version:    v1.1.0
First Deployed: Tue, 01 Dec 2026 10:00:00 +0000
Last Deployed:  Tue, 01 Dec 2026 10:00:00 +0000
Values (user-supplied):
  replicas: 2
Resources:
  ConfigMap   v1   shop/web-config
Hooks:
  Job   web-migrate   pre-upgrade   Succeeded Tue, 01 Dec 2026 09:59:00 +0000
Notes:
  web v1.1.0 is installed as web (revision 2).
  It runs 2 replica(s); its settings are in ConfigMap shop/web-config.
`
	if got := helm.Describe(rel); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestManifestObjects(t *testing.T) {
	objs, err := helm.ManifestObjects("---\n# Source: a.yaml\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\n# empty\n---\n"+
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: other\n", "shop")
	if err != nil {
		t.Fatal(err)
	}
	want := []helm.Object{{"v1", "Service", "shop", "web"}, {"apps/v1", "Deployment", "other", "web"}}
	if len(objs) != 2 || objs[0] != want[0] || objs[1] != want[1] {
		t.Errorf("objects %+v, want %+v", objs, want)
	}
	if _, err := helm.ManifestObjects("kind: [unclosed", "shop"); err == nil {
		t.Error("a manifest that is not YAML parsed")
	}
}
