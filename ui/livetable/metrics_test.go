package livetable

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"kscope/cluster"
)

// fakePodResources holds fixed resources, synced when synced is closed.
type fakePodResources struct {
	synced    chan struct{}
	resources map[string]cluster.PodResources
}

func (r fakePodResources) Synced() <-chan struct{} { return r.synced }
func (r fakePodResources) Get(key string) (cluster.PodResources, bool) {
	p, ok := r.resources[key]
	return p, ok
}

func TestMetricsFormats(t *testing.T) {
	q := resource.MustParse
	tests := []struct {
		name, got, want string
	}{
		{"CPU in nanocores rounds up to millicores", formatCPU(q("41998543n")), "42m"},
		{"CPU in cores", formatCPU(q("1")), "1000m"},
		{"CPU zero", formatCPU(resource.Quantity{}), "0m"},
		{"memory in Mi", formatMemory(q("42Mi")), "42Mi"},
		{"memory in bytes rounds down to Mi", formatMemory(q("44040191")), "41Mi"},
		{"memory in Ki", formatMemory(q("1048572Ki")), "1023Mi"},
		{"memory in Gi", formatMemory(q("1Gi")), "1024Mi"},
		{"node CPU percent truncates", nodePercent(q("255m"), q("2"), true), "12"},
		{"node memory percent", nodePercent(q("1Gi"), q("4Gi"), true), "25"},
		{"node percent of zero allocatable", nodePercent(q("10m"), resource.Quantity{}, true), "0"},
		{"node percent of unknown allocatable", nodePercent(q("10m"), q("1"), false), ""},
		{"node percent over 100", nodePercent(q("3"), q("2"), true), "150"},
		{"pod percent rounds down", podPercent(1, 3), "33"},
		{"pod percent over 100", podPercent(150, 100), "150"},
		{"pod percent of nothing requested", podPercent(42, 0), "n/a"},
		{"pod percent of no usage", podPercent(0, 100), "0"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestPodMetricsCells(t *testing.T) {
	q := resource.MustParse
	usage := []cluster.PodUsage{
		{Namespace: "shop", Name: "web", CPU: q("50m"), Memory: q("96Mi")},
		{Namespace: "shop", Name: "batch", CPU: q("1500m"), Memory: q("10Mi")},
		{Namespace: "shop", Name: "new", CPU: q("1m"), Memory: q("1Mi")},
	}
	resources := fakePodResources{synced: make(chan struct{}), resources: map[string]cluster.PodResources{
		"shop/web":   {RequestCPU: 100, LimitCPU: 200, RequestMemory: 128 << 20, LimitMemory: 256 << 20},
		"shop/batch": {RequestCPU: 1000},
	}}
	tests := []struct {
		name      string
		resources cluster.PodResourceReader
		want      map[string]string
	}{
		{"no resources yet", nil, map[string]string{
			"shop/web": "50m 96Mi    ", "shop/batch": "1500m 10Mi    ", "shop/new": "1m 1Mi    "}},
		{"resources not listed yet", resources, map[string]string{
			"shop/web": "50m 96Mi    ", "shop/batch": "1500m 10Mi    ", "shop/new": "1m 1Mi    "}},
		{"resources listed", closedResources(resources), map[string]string{
			"shop/web":   "50m 96Mi 50 25 75 37",
			"shop/batch": "1500m 10Mi 150 n/a n/a n/a",
			"shop/new":   "1m 1Mi    ", // not in the pods listed
		}},
	}
	for _, tt := range tests {
		got := podMetricsCells(usage, tt.resources)
		if len(got) != len(tt.want) {
			t.Errorf("%s: %d rows, want %d", tt.name, len(got), len(tt.want))
		}
		for key, want := range tt.want {
			if cells := strings.Join(got[key], " "); cells != want {
				t.Errorf("%s: %s: %q, want %q", tt.name, key, cells, want)
			}
		}
	}
}

func closedResources(r fakePodResources) fakePodResources {
	r.synced = make(chan struct{})
	close(r.synced)
	return r
}

func TestNodeMetricsCells(t *testing.T) {
	q := resource.MustParse
	got := nodeMetricsCells([]cluster.NodeUsage{
		{Name: "a", CPU: q("255m"), Memory: q("1Gi"), HasAllocatable: true, AllocatableCPU: q("2"), AllocatableMemory: q("4Gi")},
		{Name: "b", CPU: q("5m"), Memory: q("3Mi")},
	})
	for key, want := range map[string]string{"a": "255m 12 1024Mi 25", "b": "5m  3Mi "} {
		if cells := strings.Join(got[key], " "); cells != want {
			t.Errorf("%s: %q, want %q", key, cells, want)
		}
	}
}
