package livetable

import (
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/api/resource"

	"kscope/cluster"
	"kscope/watch"
)

// MetricsGroup is the API group metrics-server serves (`kubectl top` reads it).
const MetricsGroup = "metrics.k8s.io"

// The extra columns of pods and nodes tables: usage as `kubectl top` prints it, then percentages as k9s
// shows them (of the pod's requests and limits; of the node's allocatable, as `kubectl top nodes` does).
var (
	podMetricsColumns = []watch.Column{
		{Name: "CPU", Type: "quantity", Description: "CPU used (millicores), as kubectl top pods prints it"},
		{Name: "MEM", Type: "quantity", Description: "memory used (MiB), as kubectl top pods prints it"},
		{Name: "%CPU/R", Type: "integer", Description: "CPU used, percent of the pod's CPU requests"},
		{Name: "%CPU/L", Type: "integer", Description: "CPU used, percent of the pod's CPU limits"},
		{Name: "%MEM/R", Type: "integer", Description: "memory used, percent of the pod's memory requests"},
		{Name: "%MEM/L", Type: "integer", Description: "memory used, percent of the pod's memory limits"},
	}
	nodeMetricsColumns = []watch.Column{
		{Name: "CPU", Type: "quantity", Description: "CPU used (millicores), as kubectl top nodes prints it"},
		{Name: "%CPU", Type: "integer", Description: "CPU used, percent of the node's allocatable CPU"},
		{Name: "MEM", Type: "quantity", Description: "memory used (MiB), as kubectl top nodes prints it"},
		{Name: "%MEM", Type: "integer", Description: "memory used, percent of the node's allocatable memory"},
	}
)

// notAvailable is a percentage of a request or limit that no container sets (k9s's word for it).
const notAvailable = "n/a"

// formatCPU prints a CPU quantity as `kubectl top` does: whole millicores, rounded up.
func formatCPU(q resource.Quantity) string { return fmt.Sprintf("%vm", q.MilliValue()) }

// formatMemory prints a memory quantity as `kubectl top` does: whole MiB, rounded down.
func formatMemory(q resource.Quantity) string { return fmt.Sprintf("%vMi", q.Value()/(1024*1024)) }

// nodePercent is usage as a percentage of allocatable, computed and truncated as `kubectl top nodes` does
// (0 when allocatable is zero); "" when allocatable is unknown.
func nodePercent(usage, allocatable resource.Quantity, known bool) string {
	if !known {
		return ""
	}
	fraction := 0.0
	if !allocatable.IsZero() {
		fraction = float64(usage.MilliValue()) / float64(allocatable.MilliValue()) * 100
	}
	return strconv.FormatInt(int64(fraction), 10)
}

// podPercent is used as a percentage of total, rounded down as k9s does; "n/a" when total is 0 (no
// container sets it).
func podPercent(used, total int64) string {
	if total == 0 {
		return notAvailable
	}
	return strconv.Itoa(int(math.Floor(float64(used) / float64(total) * 100)))
}

// podMetricsCells returns the extra cells of a pods table by row key ("namespace/name"). Percentages are
// empty while resources is nil or has not listed the pods yet, and for a pod it does not hold.
func podMetricsCells(usage []cluster.PodUsage, resources cluster.PodResourceReader) map[string][]string {
	synced := resources != nil && isClosed(resources.Synced())
	cells := make(map[string][]string, len(usage))
	for _, u := range usage {
		key := u.Namespace + "/" + u.Name
		row := make([]string, len(podMetricsColumns))
		row[0], row[1] = formatCPU(u.CPU), formatMemory(u.Memory)
		if synced {
			if r, ok := resources.Get(key); ok {
				cpu, mem := u.CPU.MilliValue(), u.Memory.Value()
				row[2], row[3] = podPercent(cpu, r.RequestCPU), podPercent(cpu, r.LimitCPU)
				row[4], row[5] = podPercent(mem, r.RequestMemory), podPercent(mem, r.LimitMemory)
			}
		}
		cells[key] = row
	}
	return cells
}

// nodeMetricsCells returns the extra cells of a nodes table by row key (the node's name).
func nodeMetricsCells(usage []cluster.NodeUsage) map[string][]string {
	cells := make(map[string][]string, len(usage))
	for _, u := range usage {
		cells[u.Name] = []string{
			formatCPU(u.CPU), nodePercent(u.CPU, u.AllocatableCPU, u.HasAllocatable),
			formatMemory(u.Memory), nodePercent(u.Memory, u.AllocatableMemory, u.HasAllocatable),
		}
	}
	return cells
}

// isClosed tells whether ch is closed (it never receives values).
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// metricsServed tells whether the catalog lists metrics.k8s.io's resource (pods or nodes).
func metricsServed(cat cluster.Catalog, resource string) bool {
	for _, r := range cat.Resources() {
		if r.Group == MetricsGroup && r.Name == resource && r.Has("list") {
			return true
		}
	}
	return false
}
