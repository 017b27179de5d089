package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// primePause is how long a priming key press (one before the measured press) is left to take effect.
const primePause = 3 * time.Second

// filter measures the row filter twice. First as a burst: `/`, a pod name and Enter sent at once, timed
// until the table shows one row. Then per keystroke: `/` and the name but its last character are typed and
// left to settle, and the last character and Enter are timed until one row shows (whether the tool filters
// while typing or on Enter, this is the keystroke the user waits on). Each time the filter is cleared with
// Escape and the full table awaited.
func (b *bench) filter(t tool, s *Sample) error {
	name, err := b.existingPod(b.pods/2 + 7)
	if err != nil {
		return err
	}
	oneRow := func(sc []string) bool { return rowCount(sc) == 1 && lineOf(sc, name) != "" }
	start := time.Now()
	if err := b.tmux.literal(session, "/"+name); err != nil {
		return err
	}
	if err := b.tmux.keys(session, "Enter"); err != nil {
		return err
	}
	took, _, err := b.waitFor(start, keyPoll, b.keyLimit(), oneRow)
	if err != nil {
		return err
	}
	s.FilterBurstMS = ms(took)
	if err := b.clearFilter(); err != nil {
		return err
	}
	partial := name[:len(name)-1]
	typed := regexp.MustCompile(regexp.QuoteMeta(partial) + `(\D|$)`)
	if err := b.tmux.literal(session, "/"+partial); err != nil {
		return err
	}
	if _, _, err := b.waitFor(time.Now(), launchPoll, b.keyLimit(), func(sc []string) bool {
		return typed.MatchString(strings.Join(sc, "\n"))
	}); err != nil {
		return fmt.Errorf("typed filter text not shown: %w", err)
	}
	if t.liveFilter { // wait until the partial name has filtered the table
		if _, _, err := b.waitFor(time.Now(), launchPoll, b.keyLimit(), func(sc []string) bool {
			n := rowCount(sc)
			return n > 1 && n < b.pods
		}); err != nil {
			return fmt.Errorf("typed filter text not applied: %w", err)
		}
	}
	if err := b.settle(); err != nil {
		return err
	}
	start = time.Now()
	if err := b.tmux.literal(session, name[len(name)-1:]); err != nil {
		return err
	}
	if err := b.tmux.keys(session, "Enter"); err != nil {
		return err
	}
	if took, _, err = b.waitFor(start, keyPoll, b.keyLimit(), oneRow); err != nil {
		return err
	}
	s.FilterMS = ms(took)
	return b.clearFilter()
}

// clearFilter presses Escape and waits for the full table.
func (b *bench) clearFilter() error {
	if err := b.tmux.keys(session, "Escape"); err != nil {
		return err
	}
	_, _, err := b.waitFor(time.Now(), launchPoll, b.keyLimit(), func(sc []string) bool { return rowCount(sc) >= b.pods*99/100 })
	return err
}

// settle waits until the title's row count is the same in captures 300 ms apart (at least a second).
func (b *bench) settle() error {
	time.Sleep(time.Second)
	prev := -2
	for deadline := time.Now().Add(b.keyLimit()); time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		sc, err := b.tmux.capture(session)
		if err != nil {
			return err
		}
		if n := rowCount(sc); n == prev {
			return nil
		} else {
			prev = n
		}
	}
	return fmt.Errorf("screen did not settle in %s", b.keyLimit())
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// existingPod returns the name of the first seeded pod from index i on that exists and is not being deleted.
func (b *bench) existingPod(i int) (string, error) {
	pods := b.client.CoreV1().Pods(b.namespace)
	for j := i; j < i+100; j++ {
		name := fmt.Sprintf("scale-%06d", j)
		if p, err := pods.Get(context.Background(), name, metav1.GetOptions{}); err == nil && p.DeletionTimestamp == nil {
			return name, nil
		}
	}
	return "", fmt.Errorf("no pod scale-%06d… found", i)
}

// sort presses the tool's sort key (after its priming presses) and times it until the visible order of
// pod names flips.
func (b *bench) sort(t tool) (float64, error) {
	for range t.sortPrimes {
		if err := b.tmux.keys(session, t.sortKey); err != nil {
			return 0, err
		}
		time.Sleep(primePause)
	}
	sc, err := b.tmux.capture(session)
	if err != nil {
		return 0, err
	}
	before := order(sc)
	if before == 0 {
		return 0, fmt.Errorf("visible rows are not sorted by name: %v", visiblePods(sc))
	}
	start := time.Now()
	if err := b.tmux.keys(session, t.sortKey); err != nil {
		return 0, err
	}
	took, _, err := b.waitFor(start, keyPoll, b.keyLimit(), func(sc []string) bool { return order(sc) == -before })
	return ms(took), err
}

// sortOther times a sort by another column than the current one (not a flip): the tool's priming keys, then
// its key that sorts by IP, until the visible pods are in the order of their IPs as the server lists them
// (an order unrelated to names: kwok hands out addresses as pods start). The server's pods are listed
// before the priming keys, whose pauses let the apiserver's load from that list pass.
func (b *bench) sortOther(t tool) (float64, error) {
	ips, err := listIPs(context.Background(), b.client, b.namespace)
	if err != nil {
		return 0, fmt.Errorf("list pods: %w", err)
	}
	byIP := newIPOrder(ips)
	time.Sleep(primePause)
	for _, k := range t.otherSortPrimes {
		if err := b.tmux.keys(session, k); err != nil {
			return 0, err
		}
		time.Sleep(primePause)
	}
	sc, err := b.tmux.capture(session)
	if err != nil {
		return 0, err
	}
	if byIP.shows(sc) {
		return 0, fmt.Errorf("the rows are in IP order before the key: %v", visiblePods(sc))
	}
	start := time.Now()
	if err := b.tmux.keys(session, t.otherSortKey); err != nil {
		return 0, err
	}
	took, last, err := b.waitFor(start, keyPoll, b.keyLimit(), byIP.shows)
	if err != nil {
		return 0, fmt.Errorf("%w; rows shown: %v", err, visiblePods(last))
	}
	return ms(took), nil
}
