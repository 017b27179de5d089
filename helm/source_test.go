package helm_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"helm.sh/helm/v4/pkg/release/common"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/helm"
	"kscope/helm/helmtest"
	"kscope/watch"
)

func TestParseRevision(t *testing.T) {
	created := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		row  watch.Row
		want helm.Revision
		ok   bool
	}{
		{"labels", watch.Row{Namespace: "shop", Name: "sh.helm.release.v1.web.v3", Created: created, ResourceVersion: "7",
			Labels: map[string]string{"owner": "helm", "name": "web", "version": "3", "status": "deployed", "modifiedAt": "1764590400"}},
			helm.Revision{Release: "web", Namespace: "shop", Number: 3, Status: "deployed", Updated: time.Unix(1764590400, 0),
				Driver: helm.Secrets, Object: "sh.helm.release.v1.web.v3", ResourceVersion: "7"}, true},
		{"createdAt when never modified", watch.Row{Namespace: "shop", Name: "sh.helm.release.v1.web.v1", Created: created,
			Labels: map[string]string{"owner": "helm", "name": "web", "version": "1", "status": "superseded", "createdAt": "1764500000"}},
			helm.Revision{Release: "web", Namespace: "shop", Number: 1, Status: "superseded", Updated: time.Unix(1764500000, 0),
				Driver: helm.Secrets, Object: "sh.helm.release.v1.web.v1"}, true},
		{"no labels yet: the object's name", watch.Row{Namespace: "shop", Name: "sh.helm.release.v1.my.app.v12", Created: created},
			helm.Revision{Release: "my.app", Namespace: "shop", Number: 12, Updated: created, Driver: helm.Secrets,
				Object: "sh.helm.release.v1.my.app.v12"}, true},
		{"another owner", watch.Row{Namespace: "shop", Name: "sh.helm.release.v1.web.v1",
			Labels: map[string]string{"owner": "someone", "name": "web", "version": "1"}}, helm.Revision{}, false},
		{"not a revision's name", watch.Row{Namespace: "shop", Name: "web-config"}, helm.Revision{}, false},
		{"revision zero", watch.Row{Namespace: "shop", Name: "sh.helm.release.v1.web.v0"}, helm.Revision{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := helm.ParseRevision(helm.Secrets, &tc.row)
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v %v, want %+v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestLatestAndHistory(t *testing.T) {
	revs := []helm.Revision{
		{Release: "web", Namespace: "shop", Number: 1, Driver: helm.Secrets},
		{Release: "web", Namespace: "shop", Number: 3, Driver: helm.Secrets},
		{Release: "web", Namespace: "shop", Number: 2, Driver: helm.Secrets},
		{Release: "db", Namespace: "shop", Number: 2, Driver: helm.ConfigMaps},
		{Release: "db", Namespace: "shop", Number: 2, Driver: helm.Secrets},
		{Release: "web", Namespace: "ads", Number: 1, Driver: helm.ConfigMaps},
	}
	var got []string
	for _, r := range helm.Latest(revs) {
		got = append(got, r.Key()+" "+string(r.Driver)+" "+itoa(r.Number))
	}
	want := []string{"ads/web configmap 1", "shop/db secret 2", "shop/web secret 3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("latest %v, want %v", got, want)
	}
	got = nil
	for _, r := range helm.History(revs, "shop/web") {
		got = append(got, itoa(r.Number))
	}
	if !reflect.DeepEqual(got, []string{"1", "2", "3"}) {
		t.Errorf("history %v", got)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }

// waitRows waits until the source's rows are want (cells joined by spaces), or fails.
func waitRows(t *testing.T, s *helm.Source, want ...string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		var got []string
		for _, r := range s.Snapshot(watch.Query{SortColumn: -1}).Rows {
			line := ""
			for i, c := range r.Cells {
				if i > 0 {
					line += " "
				}
				line += c
			}
			got = append(got, line)
		}
		if reflect.DeepEqual(got, want) {
			return
		}
		select {
		case <-s.Notify():
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("rows %q, want %q", got, want)
		}
	}
}

func TestSourceShowsLatestRevisionsAndDecodesEachOnce(t *testing.T) {
	store := &helmtest.Store{}
	k1 := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 1, common.StatusSuperseded, "1.0.0"))
	k2 := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 2, common.StatusDeployed, "1.1.0"))
	k3 := store.Install(t, helm.ConfigMaps, helmtest.Release("db", "data", 1, common.StatusFailed, "0.9.0"))
	maker := &helmtest.Sources{}
	s, err := helm.NewSource(nil, maker, store, "")
	if err != nil {
		t.Fatal(err)
	}
	secrets, cms := maker.Part("secrets"), maker.Part("configmaps")
	secrets.Put(store.Row(helm.Secrets, "shop", k1, "u1", "10"), store.Row(helm.Secrets, "shop", k2, "u2", "11"))
	cms.Put(store.Row(helm.ConfigMaps, "data", k3, "u3", "12"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()
	waitRows(t, s, "data db 1 failed shop-0.9.0 2.0.9.0 ", "shop web 2 deployed shop-1.1.0 2.1.1.0 ")
	if names := []string{s.Columns()[0].Name, s.Columns()[4].Name}; !reflect.DeepEqual(names, []string{"NAMESPACE", "CHART"}) {
		t.Errorf("columns %v", names)
	}
	if got := len(s.Revisions("shop/web")); got != 2 {
		t.Errorf("%d revisions of shop/web, want 2", got)
	}

	// A new revision shows at once, from its labels; its chart once decoded. The old rows are not decoded
	// again: three gets so far, one more for the new revision.
	k4 := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 3, common.StatusDeployed, "1.2.0"))
	secrets.Put(store.Row(helm.Secrets, "shop", k4, "u4", "13"))
	waitRows(t, s, "data db 1 failed shop-0.9.0 2.0.9.0 ", "shop web 3 deployed shop-1.2.0 2.1.2.0 ")
	if store.Gets() != 3 {
		t.Errorf("%d gets of stored revisions, want 3 (each latest revision once)", store.Gets())
	}
	// An uninstall without history deletes the objects: the release goes.
	cms.Delete("data/" + k3)
	waitRows(t, s, "shop web 3 deployed shop-1.2.0 2.1.2.0 ")
	if st := s.State(); st.Phase != watch.Synced || st.Note != "" {
		t.Errorf("state %+v", st)
	}
}

func TestSourceSaysWhatItCannotList(t *testing.T) {
	maker := &helmtest.Sources{}
	s, err := helm.NewSource(nil, maker, &helmtest.Store{}, "shop")
	if err != nil {
		t.Fatal(err)
	}
	maker.Part("secrets").SetState(watch.State{Phase: watch.Forbidden, Message: `secrets is forbidden`})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()
	deadline := time.After(10 * time.Second)
	for s.State().Note == "" {
		select {
		case <-s.Notify():
		case <-deadline:
			t.Fatalf("state %+v", s.State())
		}
	}
	if st := s.State(); st.Phase != watch.Synced || st.Note != "releases stored in secrets not shown: secrets is forbidden" {
		t.Errorf("state %+v", st)
	}
}

// TestSourceDecodesEachReleaseBeforeItsMetadataIsFilled: rows of a one-namespace list have no UID nor
// resourceVersion until their metadata is filled in; each release still shows its own chart.
func TestSourceDecodesEachReleaseBeforeItsMetadataIsFilled(t *testing.T) {
	store := &helmtest.Store{}
	kw := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 1, common.StatusDeployed, "1.0.0"))
	ka := store.Install(t, helm.Secrets, helmtest.Release("api", "shop", 1, common.StatusDeployed, "2.0.0"))
	maker := &helmtest.Sources{}
	s, err := helm.NewSource(nil, maker, store, "shop")
	if err != nil {
		t.Fatal(err)
	}
	maker.Part("secrets").Put(store.Row(helm.Secrets, "shop", kw, "", ""), store.Row(helm.Secrets, "shop", ka, "", ""))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()
	waitRows(t, s, "api 1 deployed shop-2.0.0 2.2.0.0 ", "web 1 deployed shop-1.0.0 2.1.0.0 ")
}

// blockingGetter holds every Get until release is closed.
type blockingGetter struct {
	helm.Getter
	release chan struct{}
}

func (g blockingGetter) Get(ctx context.Context, gvr schema.GroupVersionResource, ns, name string) (*unstructured.Unstructured, error) {
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return g.Getter.Get(ctx, gvr, ns, name)
}

// TestSourceCountsTheChartsLeftToRead: Reading counts the latest revisions whose chart is not read yet, one
// per release, down to none once read.
func TestSourceCountsTheChartsLeftToRead(t *testing.T) {
	store := &helmtest.Store{}
	kw1 := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 1, common.StatusSuperseded, "1.0.0"))
	kw2 := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 2, common.StatusDeployed, "1.1.0"))
	ka := store.Install(t, helm.Secrets, helmtest.Release("api", "shop", 1, common.StatusDeployed, "2.0.0"))
	maker := &helmtest.Sources{}
	get := blockingGetter{Getter: store, release: make(chan struct{})}
	s, err := helm.NewSource(nil, maker, get, "shop")
	if err != nil {
		t.Fatal(err)
	}
	maker.Part("secrets").Put(store.Row(helm.Secrets, "shop", kw1, "u1", "1"), store.Row(helm.Secrets, "shop", kw2, "u2", "2"),
		store.Row(helm.Secrets, "shop", ka, "u3", "3"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()
	waitRows(t, s, "api 1 deployed   ", "web 2 deployed   ")
	if n := s.Reading(); n != 2 {
		t.Errorf("reading %d charts before any is read, want 2 (each release's latest)", n)
	}
	close(get.release)
	waitRows(t, s, "api 1 deployed shop-2.0.0 2.2.0.0 ", "web 2 deployed shop-1.1.0 2.1.1.0 ")
	if n := s.Reading(); n != 0 {
		t.Errorf("reading %d charts once all are read, want 0", n)
	}
}

// TestSourceReadsEachLatestRevisionOnceThoughItsMetadataComesLater: rows listed before their metadata is
// filled in (no UID nor resourceVersion) are read once; the fill (the same objects) reads nothing again.
func TestSourceReadsEachLatestRevisionOnceThoughItsMetadataComesLater(t *testing.T) {
	store := &helmtest.Store{}
	kw := store.Install(t, helm.Secrets, helmtest.Release("web", "shop", 1, common.StatusDeployed, "1.0.0"))
	ka := store.Install(t, helm.Secrets, helmtest.Release("api", "shop", 1, common.StatusDeployed, "2.0.0"))
	filled := []*watch.Row{store.Row(helm.Secrets, "shop", kw, "uw", "5"), store.Row(helm.Secrets, "shop", ka, "ua", "6")}
	maker := &helmtest.Sources{}
	s, err := helm.NewSource(nil, maker, store, "shop")
	if err != nil {
		t.Fatal(err)
	}
	bare := func(r *watch.Row) *watch.Row { b := *r; b.UID, b.ResourceVersion, b.Labels = "", "", nil; return &b }
	maker.Part("secrets").Put(bare(filled[0]), bare(filled[1]))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.Start(ctx)
	defer s.Stop()
	waitRows(t, s, "api 1  shop-2.0.0 2.2.0.0 ", "web 1  shop-1.0.0 2.1.0.0 ")
	maker.Part("secrets").Put(filled...)
	waitRows(t, s, "api 1 deployed shop-2.0.0 2.2.0.0 ", "web 1 deployed shop-1.0.0 2.1.0.0 ")
	time.Sleep(100 * time.Millisecond) // a read the fill would start has had its time
	if n := store.Gets(); n != 2 || s.Reading() != 0 {
		t.Errorf("%d reads of stored revisions (%d left), want 2: one per release", n, s.Reading())
	}
}
