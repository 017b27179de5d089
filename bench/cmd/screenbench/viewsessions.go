package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The screens of the views: kscope titles a table of the "all" category all(NAMESPACE)[COUNT]; the HEALTH
// column's cells are kstatus words and, until its list is complete, the status line says so; the tree's
// line says "N kinds listed in T" once every kind is listed.
var (
	allTitleCount = regexp.MustCompile(`\ball\(([^)]*)\)\[([0-9,]+)\]`)
	healthWord    = regexp.MustCompile(`\b(Current|InProgress|Failed|Terminating|NotFound|Unknown)\b`)
	treeDone      = regexp.MustCompile(`[0-9]+ kinds listed in [0-9.]+[µmn]?s`)
)

const (
	healthListing = "health: listing the objects"
	healthFailed  = "no health:"
	// customColumns are the custom columns measured: kubectl's form, cells from each object.
	customColumns = "NAME:.metadata.name,IMAGE:.spec.containers[*].image,NODE:.spec.nodeName,IP:.status.podIP"
	// viewSettle is how long a view is left after it is complete before its memory is read.
	viewSettle = 3 * time.Second
)

// command is the command line of kscope on args.
func (vb *viewBench) command(args ...string) string {
	return strings.Join(append([]string{"exec", vb.kscope, "--kubeconfig", vb.b.kubeconfig}, args...), " ")
}

// podsCheck is the complete check of a pods table in scope (a namespace, or "all"): its title's count one
// the server reported (counts), and not listing.
func podsCheck(scope string, counts *podCounts) func([]string) (complete, listing bool) {
	return func(sc []string) (bool, bool) {
		t, ok := titleOf(sc)
		return ok && t.scope == scope && !t.listing && counts.seen(t.count), !ok || t.listing
	}
}

// podsTable is one session of kscope's pods table in the namespace, or in all namespaces.
func (vb *viewBench) podsTable(all bool) Sample {
	b := vb.b
	ns, scope, args, expect := b.namespace, b.namespace, []string{"-n", b.namespace, "pods"}, b.pods
	if all {
		ns, scope, args, expect = "", "all", []string{"-A", "pods"}, 0
	}
	counts := b.serverCounts(ns, expect)
	stop := sync.OnceFunc(counts.stop)
	defer stop()
	s := b.session("kscope", vb.command(args...), podsCheck(scope, counts), stop)
	if all {
		s.ClusterPods = counts.largest()
	}
	return s
}

// view measures view v once.
func (vb *viewBench) view(v string) ViewSample {
	b := vb.b
	counts := b.serverCounts(b.namespace, b.pods)
	stop := sync.OnceFunc(counts.stop)
	defer stop()
	switch v {
	case viewCustom:
		return ViewSample{Launch: b.session("kscope", vb.command("-n", b.namespace, "pods", "-o", "custom-columns="+customColumns),
			podsCheck(b.namespace, counts), stop)}
	case viewAll:
		others, err := vb.otherAllKinds()
		if err != nil {
			s := Sample{LoadAvg: loadAvg(), Errors: []string{"count the category's other objects: " + err.Error()}}
			return ViewSample{Launch: s}
		}
		return ViewSample{Launch: b.session("kscope", vb.command("-n", b.namespace, "all"), allCheck(b.namespace, counts, others), stop)}
	}
	var vs ViewSample
	t := tool{name: "kscope"}
	defer b.quit(t)
	vs.Launch.LoadAvg = loadAvg()
	pid := b.open(t, vb.command("-n", b.namespace, "pods"), podsCheck(b.namespace, counts), &vs.Launch)
	stop()
	if pid == 0 {
		return vs
	}
	time.Sleep(viewSettle)
	vs.RSSBeforeMB, _, _ = memoryMB(pid)
	key, done := "H", healthDone
	if v == viewTree {
		key, done = "t", treeComplete
	}
	if err := b.tmux.keys(session, key); err != nil {
		b.failf(&vs.Launch, t, "%s: %s", v, err)
		vs.KeyS = -1
		return vs
	}
	start := time.Now()
	var failed string
	took, last, err := b.waitFor(start, launchPoll, b.limit(60*time.Second, 20*time.Second), func(sc []string) bool {
		ok, why := done(sc)
		failed = why
		return ok || why != ""
	})
	switch {
	case err != nil:
		b.failf(&vs.Launch, t, "%s: %s; last screen's status: %s", v, err, lastLine(last))
		vs.KeyS = -1
		return vs
	case failed != "":
		b.failf(&vs.Launch, t, "%s: %s", v, failed)
		vs.KeyS = -1
		return vs
	}
	vs.KeyS = took.Seconds()
	if m := treeDone.FindString(strings.Join(last, "\n")); m != "" {
		vs.Line = m
	}
	time.Sleep(viewSettle)
	vs.RSSAfterMB, vs.PeakRSSMB, _ = memoryMB(pid)
	return vs
}

// healthDone tells whether the HEALTH column is filled: its header shows, the status line no longer says
// its list is arriving, and every visible pod row has a kstatus word; failed is the status line's reason
// when the column could not be listed.
func healthDone(sc []string) (done bool, failed string) {
	header, rows := false, 0
	for _, line := range sc {
		switch {
		case strings.Contains(line, healthFailed):
			return false, strings.TrimSpace(line[strings.Index(line, healthFailed):])
		case strings.Contains(line, healthListing):
			return false, ""
		case strings.Contains(line, "HEALTH"):
			header = true
		case podName.MatchString(line):
			if !healthWord.MatchString(line) {
				return false, ""
			}
			rows++
		}
	}
	return header && rows > 0, ""
}

// treeComplete tells whether the tree's line says every kind is listed.
func treeComplete(sc []string) (bool, string) {
	return treeDone.MatchString(strings.Join(sc, "\n")), ""
}

// allCheck is the complete check of the table of the "all" category in namespace: its title's count the
// category's other objects (others) and a pod count the server reported, and not listing.
func allCheck(namespace string, counts *podCounts, others int) func([]string) (complete, listing bool) {
	return func(sc []string) (bool, bool) {
		for _, line := range sc {
			m := allTitleCount.FindStringSubmatchIndex(line)
			if m == nil || line[m[2]:m[3]] != namespace {
				continue
			}
			n, err := strconv.Atoi(strings.ReplaceAll(line[m[4]:m[5]], ",", ""))
			listing := listingOf.MatchString(line[m[1]:])
			return err == nil && !listing && counts.seen(n-others), listing
		}
		return false, true
	}
}

// otherAllKinds counts the namespace's objects of the "all" category other than pods (what `kubectl get all`
// lists: services, daemon sets, deployments, replica sets, stateful sets, replication controllers, jobs,
// cron jobs and horizontal pod autoscalers).
func (vb *viewBench) otherAllKinds() (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, ns, opts := vb.b.client, vb.b.namespace, metav1.ListOptions{}
	counts := []func() (int, error){
		func() (int, error) { return lenList(c.CoreV1().Services(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.CoreV1().ReplicationControllers(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.AppsV1().DaemonSets(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.AppsV1().Deployments(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.AppsV1().ReplicaSets(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.AppsV1().StatefulSets(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.BatchV1().Jobs(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.BatchV1().CronJobs(ns).List(ctx, opts)) },
		func() (int, error) { return lenList(c.AutoscalingV2().HorizontalPodAutoscalers(ns).List(ctx, opts)) },
	}
	total := 0
	for _, count := range counts {
		n, err := count()
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// lenList is the number of items of a list, or its error.
func lenList(l runtime.Object, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return meta.LenList(l), nil
}

// stateSummary is a short form of r for the log.
func stateSummary(r StateRound) string {
	return fmt.Sprintf("floor %.3fs, kscope %s; all namespaces: floor %.3fs (%d rows), kscope %s; %v %v",
		r.FloorS, summary(r.Namespace), r.FloorAllS, r.FloorRows, summary(r.All), r.Prepared, r.FloorErrors)
}

// viewSummary is a short form of v for the log.
func viewSummary(v ViewSample) string {
	return fmt.Sprintf("%s; key → complete %.3fs, rss %.0f → %.0f MB (peak %.0f) %s", summary(v.Launch), v.KeyS,
		v.RSSBeforeMB, v.RSSAfterMB, v.PeakRSSMB, v.Line)
}
