package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/ui/livetable"
)

// TestBurstScreenNotesKeysWithInputBehind: keys read while more input waits are noted, the last of a burst
// is not, and a key is forgotten once taken.
func TestBurstScreenNotesKeysWithInputBehind(t *testing.T) {
	sim := tcell.NewSimulationScreen("UTF-8")
	s := newBurstScreen(sim)
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	defer s.Fini()
	for _, r := range "abc" {
		sim.InjectKey(tcell.KeyRune, r, tcell.ModNone)
	}
	var got []bool
	for range 3 {
		k := s.PollEvent().(*tcell.EventKey)
		got = append(got, s.takeFollowed(k), s.takeFollowed(k))
	}
	want := []bool{true, false, true, false, false, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("followed (taken twice per key) %v, want %v", got, want)
		}
	}
}

// TestKeyBurstDrawnOnce: keys that arrive at once (each but the last with input behind it) are handled one
// by one and drawn once, after the last.
func TestKeyBurstDrawnOnce(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	count := h.countDraws()
	base := count()
	burst := filterBurst(h, false)
	h.until("filter applied", func() bool { return h.app.top().(*livetable.Table).Query().Filter.String() == "web" })
	if n := count() - base; n != 1 {
		t.Errorf("%d draws for a burst of %d keys, want 1", n, len(burst))
	}
	h.contains("pods(shop)[2] </web>")
}

// TestBurstWhoseLastKeyIsFollowedIsDrawn: when what follows the last key of a burst is not a key that draws
// (here: nothing comes), the draw skipped after it comes burstDraw later, once.
func TestBurstWhoseLastKeyIsFollowedIsDrawn(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	count := h.countDraws()
	base := count()
	filterBurst(h, true) // the last key too: input followed it, but no key came
	h.until("filter applied", func() bool { return h.app.top().(*livetable.Table).Query().Filter.String() == "web" })
	if n := count() - base; n != 0 {
		t.Fatalf("%d draws before the fallback, want 0", n)
	}
	h.waitClockWaiter()
	h.advance(burstDraw)
	h.until("drawn", func() bool { return count()-base == 1 })
	h.contains("pods(shop)[2] </web>")
}

// filterBurst sends the keys of `/web` enter at once, as the terminal reads a burst: each but the last (and
// the last too when lastFollowed) noted as having input behind it. It returns the keys.
func filterBurst(h *harness, lastFollowed bool) []*tcell.EventKey {
	var burst []*tcell.EventKey
	for _, r := range "/web" {
		burst = append(burst, tcell.NewEventKey(tcell.KeyRune, r, tcell.ModNone))
	}
	burst = append(burst, tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
	followed := burst[:len(burst)-1]
	if lastFollowed {
		followed = burst
	}
	h.app.screen.mu.Lock()
	for _, k := range followed {
		h.app.screen.followed[k] = struct{}{}
	}
	h.app.screen.mu.Unlock()
	for _, k := range burst {
		h.app.tv.QueueEvent(k)
	}
	return burst
}
