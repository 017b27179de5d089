package main

import (
	"encoding/json"
	"os"
	"slices"
)

// Results is one `screenbench run`: every sample of every tool at one size, with the machine it ran on.
type Results struct {
	Namespace string            `json:"namespace"`
	Pods      int               `json:"pods"`
	Started   string            `json:"started"`
	Finished  string            `json:"finished"`
	Machine   map[string]string `json:"machine"`
	Versions  map[string]string `json:"versions"`
	// Runs holds the samples per tool, one per run, in run order.
	Runs map[string][]Sample `json:"runs"`
	// AllNamespaces holds the samples of the launches in all namespaces (kscope -A, k9s -A, kubectl get
	// pods -A): only the launch figures and the RSS settled.
	AllNamespaces map[string][]Sample `json:"all_namespaces,omitempty"`
	// Figures names the figures the run set out to measure (metric ids); a figure listed here that a tool's
	// runs all failed to measure shows as failed, not as absent. Older results have none.
	Figures []string `json:"figures,omitempty"`
	// Skipped says why a tool was not run at this size.
	Skipped map[string]string `json:"skipped,omitempty"`
	// Profiles names the kscope profile files of the extra profiling run, if any.
	Profiles []string `json:"profiles,omitempty"`

	label string // how the report names this result
}

// Sample is one run of one tool. Zero-valued fields were not measured (kubectl has only First, Launch and
// PeakRSS).
type Sample struct {
	LoadAvg string `json:"loadavg"`
	// FirstS: launch → the first capture showing a pod row (kubectl: its first row printed); FirstListing:
	// that capture's title said the list was still arriving ("listing N of M…"). LaunchS: launch → the
	// complete table (the title's count one the server reported, not listing; kubectl: exit).
	FirstS       float64 `json:"first_s,omitempty"`
	FirstListing bool    `json:"first_listing,omitempty"`
	LaunchS      float64 `json:"launch_s"`
	// ClusterPods is the cluster's pod count during an all-namespaces launch (the most seen).
	ClusterPods int     `json:"cluster_pods,omitempty"`
	RSSMB       float64 `json:"rss_mb,omitempty"`
	PeakRSSMB   float64 `json:"peak_rss_mb"`
	IdleCPU     float64 `json:"idle_cpu_pct,omitempty"`
	ChurnCPU    float64 `json:"churn_cpu_pct,omitempty"`
	// ChurnRate is the patch rate patchload achieved during the CPU phase (patches/s).
	ChurnRate float64 `json:"churn_rate,omitempty"`
	// FilterMS: the last keystroke of the name, and Enter → one row; FilterBurstMS: `/` + name + Enter
	// sent at once → one row.
	FilterMS      float64 `json:"filter_ms,omitempty"`
	FilterBurstMS float64 `json:"filter_burst_ms,omitempty"`
	// SortMS: the sort key until the visible order of names flips; SortOtherMS: a key that sorts by another
	// column (IP) until the visible pods are in the server's IP order.
	SortMS      float64 `json:"sort_ms,omitempty"`
	SortOtherMS float64 `json:"sort_other_ms,omitempty"`
	// ChangeMS holds every change → screen latency observed; ChangeMisses counts patches never seen
	// within the timeout.
	// ChangeMS is measured from the patch's response (the change is stored), ChangeSentMS from its request.
	ChangeMS     []float64 `json:"change_ms,omitempty"`
	ChangeSentMS []float64 `json:"change_sent_ms,omitempty"`
	ChangeMisses int       `json:"change_misses,omitempty"`
	// DeliveryMS holds, for the same probes, when a bare watch of the probe pod received the change (from the
	// patch's response; negative when the event came first), read once the tool showed it or gave up;
	// DeliveryMisses counts probes the watch had not received by then.
	DeliveryMS     []float64 `json:"delivery_ms,omitempty"`
	DeliveryMisses int       `json:"delivery_misses,omitempty"`
	Errors         []string  `json:"errors,omitempty"`
}

func (r *Results) write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func readResults(path string) (*Results, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Results
	return &r, json.Unmarshal(b, &r)
}

// medianAll returns the median of values, zeros included (-1 when there are none).
func medianAll(values []float64) float64 {
	if len(values) == 0 {
		return -1
	}
	v := slices.Clone(values)
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// percentile returns the p-quantile (nearest rank) of values, 0 when empty.
func percentile(values []float64, p float64) float64 {
	if len(values) == 0 {
		return 0
	}
	v := slices.Clone(values)
	slices.Sort(v)
	i := int(p*float64(len(v))+0.999999) - 1
	return v[max(0, min(i, len(v)-1))]
}
