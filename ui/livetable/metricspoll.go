package livetable

import (
	"context"
	"strings"
	"time"

	"github.com/rivo/tview"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// MetricsPeriod is how often a table reads its metrics again (metrics-server scrapes every 15 s by default).
const MetricsPeriod = 15 * time.Second

// tableMetrics gives a pods or nodes table its CPU and memory columns while metrics.k8s.io is served: a
// goroutine per started table polls the metrics every MetricsPeriod (on the app's clock) and hands each result
// to the UI goroutine with QueueUpdateDraw; the table sorts by the cells through watch.Query.Extra. When the
// API is not served, or a poll fails, the table has no extra columns and the status line says why. The fields
// belong to the UI goroutine; poll touches none of them.
type tableMetrics struct {
	t     *Table
	nodes bool // a nodes table (else pods)
	// extra is the cells of the last successful poll (nil: no columns); version counts the polls applied.
	extra   *watch.Extra
	version uint64
	note    string
	// done is closed when the poll of the latest start has returned.
	done chan struct{}
	// ctx and spec are the table's current source's, until the poll starts for it (armed).
	ctx   context.Context
	spec  watch.Spec
	armed bool
}

// notServedNote is the status line's note while the catalog lacks metrics.k8s.io (and does not name it
// unavailable: the status line says that already).
const notServedNote = "no metrics: " + MetricsGroup + " is not served"

// newTableMetrics returns the metrics of t, or nil when t lists neither pods nor nodes.
func newTableMetrics(t *Table, res discovery.Resource) *tableMetrics {
	if res.Group != "" || (res.Name != "pods" && res.Name != "nodes") {
		return nil
	}
	if _, ok := t.src.(kindedSource); ok { // several kinds or clusters: no one cluster's metrics fit the rows
		return nil
	}
	return &tableMetrics{t: t, nodes: res.Name == "nodes"}
}

// started says at once, on a table just started, that the metrics are not served (the table's first screen
// is the one it keeps, and the poll, which starts once the table is listed, has nothing to add), and arms
// the poll of src until ctx ends (columnProvider).
func (m *tableMetrics) started(ctx context.Context, src cluster.RowSource) {
	if !metricsServed(m.t.host.Cluster().Catalog(), m.resource()) {
		m.extra, m.note = nil, notServedNote
	}
	m.ctx, m.spec, m.armed = ctx, src.Spec(), true
}

// synced starts the armed poll: once the table's source has synced, so that the poll (and, for pods, the
// list of every pod's requests and limits) never competes with the table's own first list (columnProvider).
func (m *tableMetrics) synced() {
	if m.armed {
		m.armed = false
		m.start(m.ctx, m.spec)
	}
}

// stopped: the poll ends with the context started gave (columnProvider).
func (m *tableMetrics) stopped() {}

// bindings: the metrics have no key (columnProvider).
func (m *tableMetrics) bindings() []keymap.Binding { return nil }

// start polls the metrics of spec's rows until ctx ends. UI goroutine.
func (m *tableMetrics) start(ctx context.Context, spec watch.Spec) {
	a := m.t.host
	conn := a.Cluster()
	served := metricsServed(conn.Catalog(), m.resource())
	if !served {
		m.extra, m.note = nil, notServedNote
	}
	done := make(chan struct{})
	m.done = done
	a.Go(func() {
		defer close(done)
		m.poll(ctx, conn, spec, served)
	})
}

// poll reads the metrics at once, then every MetricsPeriod, until ctx ends; while the catalog lacks
// metrics.k8s.io it waits for the catalog to change, and tells the UI only when that changes (wasServed: as
// start found it). A
// pods table also keeps its pods' requests and limits (Cluster.WatchPodResources) while the metrics are
// served, and applies its last usage again as soon as they have arrived. It runs on its own goroutine and
// never touches tview.
func (m *tableMetrics) poll(ctx context.Context, conn cluster.Interface, spec watch.Spec, wasServed bool) {
	clk := m.t.host.Clock()
	// A catalog change may start or end metrics.k8s.io: while it is not served, that is all poll waits for.
	changed := make(chan struct{}, 1)
	unsubscribe := conn.Catalog().Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer unsubscribe()
	var (
		resources     cluster.PodResourceReader
		stopResources context.CancelFunc = func() {}
		synced        <-chan struct{}    // the resources' first list, until it has been used
		usage         []cluster.PodUsage
	)
	defer func() { stopResources() }()
	for ctx.Err() == nil {
		served := metricsServed(conn.Catalog(), m.resource())
		var cells map[string][]string
		var err error
		switch {
		case !served:
			stopResources()
			resources, synced, usage = nil, nil, nil
		case m.nodes:
			var nodes []cluster.NodeUsage
			if nodes, err = conn.NodeMetrics(ctx, spec.LabelSelector); err == nil {
				cells = nodeMetricsCells(nodes)
			}
		default:
			if resources == nil {
				resources, stopResources = watchPodResources(ctx, conn, spec)
				synced = resources.Synced()
			}
			if usage, err = conn.PodMetrics(ctx, spec.Namespace, spec.LabelSelector); err == nil {
				cells = podMetricsCells(usage, resources)
			}
		}
		if ctx.Err() != nil {
			return
		}
		if served || wasServed {
			m.send(ctx, served, cells, err)
		}
		wasServed = served
		var due <-chan time.Time
		if served {
			due = clk.After(MetricsPeriod)
		}
		for again := false; !again; {
			select {
			case <-ctx.Done():
				return
			case <-due:
				again = true
			case <-changed:
				again = metricsServed(conn.Catalog(), m.resource()) != served
			case <-synced:
				synced = nil
				if usage != nil {
					m.send(ctx, true, podMetricsCells(usage, resources), nil)
				}
				m.t.host.Go(m.t.host.Settle) // the list of every pod's resources is garbage now
			}
		}
	}
}

// watchPodResources starts keeping the resources of spec's pods until ctx ends or stop is called.
func watchPodResources(ctx context.Context, conn cluster.Interface, spec watch.Spec) (r cluster.PodResourceReader, stop context.CancelFunc) {
	ctx, stop = context.WithCancel(ctx)
	return conn.WatchPodResources(ctx, spec), stop
}

// send hands one poll's outcome to the UI goroutine.
func (m *tableMetrics) send(ctx context.Context, served bool, cells map[string][]string, err error) {
	m.t.host.Update(func() {
		if ctx.Err() == nil {
			m.apply(served, cells, err)
		}
	})
}

// apply shows one poll's outcome: the new cells, or no columns and a note. UI goroutine.
func (m *tableMetrics) apply(served bool, cells map[string][]string, err error) {
	switch {
	case !served:
		m.extra, m.note = nil, notServedNote
	case err != nil:
		m.extra, m.note = nil, "metrics: "+apierr.OneLine(err.Error())
	default:
		cols := podMetricsColumns
		if m.nodes {
			cols = nodeMetricsColumns
		}
		m.version++
		m.extra, m.note = &watch.Extra{Columns: cols, Cells: cells, Version: m.version}, ""
	}
	m.t.refresh()
}

// resource is the metrics.k8s.io resource the table reads.
func (m *tableMetrics) resource() string {
	if m.nodes {
		return "nodes"
	}
	return "pods"
}

// cells returns the extra cells to show (nil for none; columnProvider).
func (m *tableMetrics) cells() *watch.Extra { return m.extra }

// statusNote is the status line's note about the metrics ("" for none), given the state of the table's
// source: a table that shows why it has no rows says nothing more (columnProvider).
func (m *tableMetrics) statusNote(st watch.State) string {
	if m.note == "" || st.Phase.Terminal() && st.Phase != watch.Stopped {
		return ""
	}
	if m.note == notServedNote {
		for _, u := range m.t.host.Cluster().Catalog().Unavailable() {
			if strings.HasPrefix(u.GroupVersion, MetricsGroup+"/") {
				return ""
			}
		}
	}
	return "  [yellow]" + tview.Escape(m.note) + "[-]"
}
