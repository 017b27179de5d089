// Command syncbench measures how fast a kscope watch.Source reaches Synced on one resource and what it holds:
// first-sync time, peak RSS, heap bytes per row, and the cost of a Snapshot. It prints one line of
// key=value pairs. bench/watch-sync.sh runs it against the devcluster.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/clientcmd"

	"kscope/watch"
)

// options are syncbench's flags.
type options struct {
	kubeconfig string
	namespace  string
	resource   string
	timeout    time.Duration
	cpuProfile string
	filter     string
	noCompress bool
}

func main() {
	var o options
	flag.StringVar(&o.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig file")
	flag.StringVar(&o.namespace, "namespace", "", "namespace to watch (empty: all namespaces)")
	flag.StringVar(&o.resource, "resource", "pods", "core/v1 resource to watch")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "give up after this long")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the sync to this file")
	flag.StringVar(&o.filter, "filter", "-0001", "filter text to time on the synced rows")
	flag.BoolVar(&o.noCompress, "disable-compression", false, "do not ask the server for gzip responses")
	flag.Parse()
	if err := o.run(); err != nil {
		fmt.Fprintf(os.Stderr, "syncbench: %v\n", err)
		os.Exit(1)
	}
}

func (o options) run() error {
	cfg, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.DisableCompression = o.noCompress
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	src, err := watch.NewSource(cfg, watch.Spec{
		GVR:        schema.GroupVersionResource{Version: "v1", Resource: o.resource},
		Namespaced: true, Namespace: o.namespace,
	})
	if err != nil {
		return err
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	start := time.Now()
	src.Start(context.Background())
	deadline := time.After(o.timeout)
	for src.State().Phase != watch.Synced {
		if st := src.State(); st.Phase.Terminal() {
			return fmt.Errorf("state %s: %s", st.Phase, st.Message)
		}
		select {
		case <-src.Notify():
		case <-deadline:
			return fmt.Errorf("not synced after %v (state %s)", o.timeout, src.State().Phase)
		}
	}
	syncTime := time.Since(start)
	first := src.Snapshot(watch.Query{SortColumn: -1})
	firstTable := time.Since(start)
	rows := first.Total

	// A one-namespace view lists rows without their objects; wait until their metadata is filled in.
	filled := waitFilled(src, start, o.timeout)

	// What a keystroke costs once the table is complete: a new sort column, then a filter on it.
	t0 := time.Now()
	src.Snapshot(watch.Query{SortColumn: 1, Descending: true})
	sortTime := time.Since(t0)
	f, err := watch.ParseFilter(o.filter)
	if err != nil {
		return err
	}
	t0 = time.Now()
	filtered := src.Snapshot(watch.Query{SortColumn: 1, Descending: true, Filter: f})
	filterTime := time.Since(t0)

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	perRow := 0.0
	if rows > 0 {
		perRow = float64(after.HeapAlloc-before.HeapAlloc) / float64(rows)
	}
	fmt.Printf("rows=%d sync_s=%.3f first_table_s=%.3f filled_s=%.3f peak_rss_mb=%.0f heap_mb=%.1f "+
		"bytes_per_row=%.0f sort_ms=%.1f filter_ms=%.1f filtered=%d\n",
		rows, syncTime.Seconds(), firstTable.Seconds(), filled.Seconds(), peakRSSMB(),
		float64(after.HeapAlloc)/1e6, perRow, ms(sortTime), ms(filterTime), len(filtered.Rows))
	runtime.KeepAlive(first)
	src.Stop()
	return nil
}

// waitFilled waits until every row has its resourceVersion and returns the time since start.
func waitFilled(src *watch.Source, start time.Time, timeout time.Duration) time.Duration {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		missing := 0
		for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
			if r.ResourceVersion == "" {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSSMB returns the process's peak resident set size (VmHWM) in MB.
func peakRSSMB() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
			return kb / 1024
		}
	}
	return 0
}
