package main

import (
	"context"
	"net/netip"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

const (
	// minSortRows is how many known pods a screen must show for its order to count.
	minSortRows = 5
	// maxSortGap is how far apart in the order two neighbouring rows may be: a pod deleted after the list
	// leaves a gap; a screen in another order jumps by thousands (or backwards).
	maxSortGap = 3
)

// ipOrder is the order of the server's pods by their IP column, ascending, as kscope and k9s sort it: both
// compare runs of digits by value (kscope's natural sort key, k9s's sortorder.NaturalLess), so dotted IPv4
// addresses sort by value; a pod without an address ("<none>" in kscope, "n/a" in k9s) sorts after every
// address. Ties (pods without an address, or sharing one) are broken by name, which the check tolerates.
type ipOrder struct {
	// rank is each pod's position among the distinct addresses; pods without one share the last rank.
	rank map[string]int
}

// newIPOrder orders pods given as name → status.podIP.
func newIPOrder(ips map[string]string) ipOrder {
	var addrs []netip.Addr
	parsed := make(map[string]netip.Addr, len(ips))
	for name, ip := range ips {
		if a, err := netip.ParseAddr(ip); err == nil {
			parsed[name] = a
			addrs = append(addrs, a)
		}
	}
	slices.SortFunc(addrs, netip.Addr.Compare)
	addrs = slices.Compact(addrs)
	o := ipOrder{rank: make(map[string]int, len(ips))}
	for name := range ips {
		a, ok := parsed[name]
		if !ok {
			o.rank[name] = len(addrs)
			continue
		}
		o.rank[name], _ = slices.BinarySearchFunc(addrs, a, netip.Addr.Compare)
	}
	return o
}

// shows tells whether the visible pods are consecutive pods of this order, top to bottom: each one's rank
// is the one above's or at most maxSortGap more (pods the server did not list, new since, are skipped). At least
// minSortRows known pods must show, with at least two distinct addresses, so that no screen passes by
// showing too little. Where the screen lies in the order does not matter: kscope keeps the cursor on the
// object it was on, so the new order shows around that object, not necessarily from the top.
func (o ipOrder) shows(screen []string) bool {
	known, distinct, prev := 0, 0, -1
	for _, name := range visiblePods(screen) {
		r, ok := o.rank[name]
		if !ok {
			continue
		}
		if known > 0 && (r < prev || r > prev+maxSortGap) {
			return false
		}
		if known == 0 || r != prev {
			distinct++
		}
		known, prev = known+1, r
	}
	return known >= minSortRows && distinct >= 2
}

// listIPs returns the IP of every pod in namespace (name → status.podIP, "" if none), listed in pages.
func listIPs(ctx context.Context, client kubernetes.Interface, namespace string) (map[string]string, error) {
	ips := map[string]string{}
	opts := metav1.ListOptions{Limit: 5000}
	for {
		list, err := client.CoreV1().Pods(namespace).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		for i := range list.Items {
			ips[list.Items[i].Name] = list.Items[i].Status.PodIP
		}
		if opts.Continue = list.Continue; opts.Continue == "" {
			return ips, nil
		}
	}
}
