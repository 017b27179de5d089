package union

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"kscope/discovery"
	"kscope/watch"
)

func TestKindLabelIsKubectlsPrefix(t *testing.T) {
	for _, tt := range []struct {
		res  discovery.Resource
		want string
	}{
		{discovery.Resource{Name: "pods", Kind: "Pod"}, "pod"},
		{discovery.Resource{Group: "apps", Name: "deployments", Kind: "Deployment"}, "deployment.apps"},
		{discovery.Resource{Group: "autoscaling", Name: "horizontalpodautoscalers", Kind: "HorizontalPodAutoscaler"},
			"horizontalpodautoscaler.autoscaling"},
		{discovery.Resource{Group: "shop.example.com", Name: "widgets", Kind: "Widget"}, "widget.shop.example.com"},
	} {
		if got := KindLabel(tt.res); got != tt.want {
			t.Errorf("KindLabel(%s) = %q, want %q", tt.res.FullName(), got, tt.want)
		}
	}
}

func TestLayoutKinds(t *testing.T) {
	col := func(spec string) []watch.Column { // "Name Ready Age Images:wide"
		var cols []watch.Column
		for _, f := range strings.Fields(spec) {
			name, wide := strings.CutSuffix(f, ":wide")
			c := watch.Column{Name: name, Age: strings.EqualFold(name, "age")}
			if wide {
				c.Priority = 1
			}
			cols = append(cols, c)
		}
		return cols
	}
	deploy := col("Name Ready Up-to-date Available Age Containers:wide")
	sts := col("Name Ready Age Containers:wide")
	allDeploy := col("Namespace Name Ready Up-to-date Available Age Containers:wide")
	tests := []struct {
		name       string
		cols       [][]watch.Column
		namespaces bool
		want       string // the columns' names, "|" then the Age cell index of each kind
	}{
		{"nothing known yet", [][]watch.Column{nil, nil}, false, "|"},
		{"one kind known: its own", [][]watch.Column{deploy, nil}, false, "KIND Name Ready Up-to-date Available Age Containers|4 -1"},
		{"the same columns", [][]watch.Column{deploy, col("NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS:wide")}, false,
			"KIND Name Ready Up-to-date Available Age Containers|4 4"},
		{"the same across namespaces", [][]watch.Column{allDeploy, allDeploy}, true,
			"KIND Namespace Name Ready Up-to-date Available Age Containers|5 5"},
		{"different columns", [][]watch.Column{deploy, sts}, false, "KIND NAME AGE|4 2"},
		{"different columns, several namespaces", [][]watch.Column{deploy, sts}, true, "KIND NAMESPACE NAME AGE|4 2"},
		{"same names, one wide and one not", [][]watch.Column{col("Name Ready Age"), col("Name Ready:wide Age")}, false, "KIND NAME AGE|2 2"},
		{"same names in another order", [][]watch.Column{col("Name Ready Age"), col("Name Age Ready")}, false, "KIND NAME AGE|2 1"},
		{"a prefix of the other", [][]watch.Column{col("Name Age"), col("Name Age Extra")}, false, "KIND NAME AGE|1 1"},
		{"no age column", [][]watch.Column{col("Name Data"), col("Name Type")}, false, "KIND NAME AGE|-1 -1"},
		{"a failed kind is left out", [][]watch.Column{sts, nil, sts}, false, "KIND Name Ready Age Containers|2 -1 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := layoutKinds(tt.cols, tt.namespaces)
			var names, ages []string
			for _, c := range l.columns {
				names = append(names, c.Name)
			}
			for _, a := range l.age {
				ages = append(ages, strconv.Itoa(a))
			}
			if l.columns == nil {
				ages = nil
			}
			if got := strings.Join(names, " ") + "|" + strings.Join(ages, " "); got != tt.want {
				t.Errorf("layout %q, want %q", got, tt.want)
			}
			if l.columns != nil && (l.columns[0] != kindColumn || !l.equal(layoutKinds(tt.cols, tt.namespaces))) {
				t.Errorf("KIND is not first, or the layout is not stable: %+v", l)
			}
		})
	}
}

func TestKindLayoutRow(t *testing.T) {
	r := &watch.Row{Key: "shop/web", Namespace: "shop", Name: "web", Created: t0.Add(-time.Hour),
		Cells: []string{"web", "2/2", "2", "2", "1h", "nginx"}}
	shared := layoutKinds([][]watch.Column{{{Name: "Name"}, {Name: "Ready"}, {Name: "Up"}, {Name: "Avail"}, {Name: "Age", Age: true}, {Name: "Img", Priority: 1}}}, false)
	if got := shared.row(0, "deployment.apps", r); got.Key != "deployment.apps/shop/web" ||
		strings.Join(got.Cells, ",") != "deployment.apps,web,2/2,2,2,1h,nginx" || got.Name != "web" || !got.Created.Equal(r.Created) {
		t.Errorf("shared row %+v", got)
	}
	fallback := layoutKinds([][]watch.Column{{{Name: "Name"}, {Name: "Ready"}, {Name: "Up"}, {Name: "Avail"}, {Name: "Age", Age: true}}, {{Name: "Name"}}}, true)
	if got := fallback.row(0, "deployment.apps", r); strings.Join(got.Cells, ",") != "deployment.apps,shop,web,1h" {
		t.Errorf("fallback row %q", got.Cells)
	}
	if got := fallback.row(1, "thing.example.com", r); strings.Join(got.Cells, ",") != "thing.example.com,shop,web," {
		t.Errorf("fallback row without an age cell %q", got.Cells)
	}
	if strings.Join(r.Cells, ",") != "web,2/2,2,2,1h,nginx" || r.Key != "shop/web" {
		t.Errorf("the kind's row was changed: %+v", r)
	}
}

func TestKindsState(t *testing.T) {
	labels := []string{"deployment.apps", "statefulset.apps", "daemonset.apps"}
	synced := watch.State{Phase: watch.Synced}
	listing := watch.State{Phase: watch.Listing, Expected: 500}
	forbidden := watch.State{Phase: watch.Forbidden, Err: errors.New("forbidden"),
		Message: `daemonsets.apps is forbidden: User "viewer" cannot list resource "daemonsets"`}
	reconnecting := watch.State{Phase: watch.Reconnecting, Err: errors.New("connection refused")}
	tests := []struct {
		name   string
		states []watch.State
		want   string // phase | message | note
	}{
		{"all synced", []watch.State{synced, synced, synced}, "synced||"},
		{"one listing", []watch.State{synced, listing, synced}, "listing||statefulset.apps listing"},
		{"one forbidden", []watch.State{synced, synced, forbidden},
			`forbidden|daemonset.apps: daemonsets.apps is forbidden: User "viewer" cannot list resource "daemonsets"|`},
		{"forbidden and reconnecting", []watch.State{reconnecting, listing, forbidden},
			"reconnecting|deployment.apps: connection refused|also statefulset.apps listing, daemonset.apps forbidden"},
		{"a kind's note", []watch.State{synced, {Phase: watch.Synced, Note: "labels pending"}, synced},
			"synced||statefulset.apps: labels pending"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := kindsState(labels, tt.states)
			if got := st.Phase.String() + "|" + st.Message + "|" + st.Note; got != tt.want {
				t.Errorf("state %q, want %q", got, tt.want)
			}
			if st.Expected != 0 {
				t.Errorf("Expected %d: one kind's count is not the table's", st.Expected)
			}
		})
	}
}
