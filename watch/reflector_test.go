package watch

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	clocktesting "k8s.io/utils/clock/testing"
)

// TestReconnectWaitsStayShort: however many list-and-watch rounds fail or end in a row (a server down for a
// while, one fault after another), a Source's reflector never waits more than 5 s before the next attempt,
// and it does not hammer a server that is away: the waits grow from 250 ms. (client-go's default waits grow
// to 30 s, jittered up to 60 s, and start over only after two quiet minutes.)
func TestReconnectWaitsStayShort(t *testing.T) {
	opts := reflectorOptions(Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}})
	if opts.Backoff == nil {
		t.Fatal("the reflector gets client-go's default backoff (up to 60 s between attempts)")
	}
	clock := clocktesting.NewFakeClock(time.Unix(1e9, 0))
	delay := opts.Backoff.DelayWithReset(clock, 2*time.Minute)
	var waits []time.Duration
	for range 100 {
		d := delay()
		waits = append(waits, d)
		clock.Step(d)
	}
	if waits[0] < 200*time.Millisecond || waits[0] > 400*time.Millisecond {
		t.Errorf("first wait %v, want about 250 ms", waits[0])
	}
	var total time.Duration
	for i, d := range waits {
		if d > 5*time.Second {
			t.Fatalf("wait %d is %v, want at most 5 s (waits %v)", i+1, d, waits[:i+1])
		}
		total += d
	}
	if avg := total / time.Duration(len(waits)); avg < 3*time.Second {
		t.Errorf("a server that stays away gets an attempt every %v on average, want about one in 4 s", avg)
	}
}
