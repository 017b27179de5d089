package watch

import (
	"fmt"
	"testing"

	"kscope/apierr"
)

// TestNextPhase covers every (phase, event) pair of the Source state machine, before and after the first list.
func TestNextPhase(t *testing.T) {
	phases := [...]Phase{Listing, Synced, Reconnecting, Forbidden, NotFound, MethodNotSupported, Unauthorized,
		BadRequest, Stopped}
	const __ = Phase(-1) // the event changes nothing (ok false)
	either := []bool{false, true}
	ev := func(k eventKind, c apierr.Class) event { return event{kind: k, class: c} }
	none := [len(phases)]Phase{__, __, __, __, __, __, __, __, __}
	tests := []struct {
		name   string
		ev     event
		synced []bool
		//        Listing, Synced, Reconnecting, Forbidden, NotFound, MethodNotSupported, Unauthorized, BadRequest, Stopped
		want [len(phases)]Phase
	}{
		{"connected before the first list", ev(evConnected, apierr.Transient), []bool{false}, none},
		{"connected", ev(evConnected, apierr.Transient), []bool{true},
			[...]Phase{__, __, Synced, __, __, __, __, __, __}},
		{"synced", ev(evSynced, apierr.Transient), either,
			[...]Phase{Synced, __, Synced, __, __, __, __, __, __}},
		{"disconnected, transient", ev(evDisconnected, apierr.Transient), either,
			[...]Phase{__, Reconnecting, __, __, __, __, __, __, __}},
		{"disconnected, forbidden", ev(evDisconnected, apierr.Forbidden), either, none},
		{"disconnected, not found", ev(evDisconnected, apierr.NotFound), either, none},
		{"disconnected, method not supported", ev(evDisconnected, apierr.MethodNotSupported), either, none},
		{"disconnected, unauthorized", ev(evDisconnected, apierr.Unauthorized), either, none},
		{"disconnected, bad request", ev(evDisconnected, apierr.BadRequest), either, none},
		{"watch error, transient", ev(evWatchError, apierr.Transient), either,
			[...]Phase{Reconnecting, Reconnecting, Reconnecting, __, __, __, __, __, __}},
		{"watch error, forbidden", ev(evWatchError, apierr.Forbidden), either,
			[...]Phase{Forbidden, Forbidden, Forbidden, __, __, __, __, __, __}},
		{"watch error, not found", ev(evWatchError, apierr.NotFound), either,
			[...]Phase{NotFound, NotFound, NotFound, __, __, __, __, __, __}},
		{"watch error, method not supported", ev(evWatchError, apierr.MethodNotSupported), either,
			[...]Phase{MethodNotSupported, MethodNotSupported, MethodNotSupported, __, __, __, __, __, __}},
		{"watch error, unauthorized", ev(evWatchError, apierr.Unauthorized), either,
			[...]Phase{Unauthorized, Unauthorized, Unauthorized, __, __, __, __, __, __}},
		{"watch error, bad request", ev(evWatchError, apierr.BadRequest), either,
			[...]Phase{BadRequest, BadRequest, BadRequest, __, __, __, __, __, __}},
		{"stopped", ev(evStopped, apierr.Transient), either,
			[...]Phase{Stopped, Stopped, Stopped, __, __, __, __, __, __}},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		for _, synced := range tt.synced {
			covered[fmt.Sprint(tt.ev, synced)] = true
			for i, cur := range phases {
				next, ok := nextPhase(cur, synced, tt.ev)
				want, wantOK := tt.want[i], tt.want[i] != __
				if !wantOK {
					want = cur
				}
				if next != want || ok != wantOK {
					t.Errorf("%s (synced %v) in %s: %s %v, want %s %v", tt.name, synced, cur, next, ok, want, wantOK)
				}
			}
		}
	}
	// Every phase is in the table, and every event (with every error class where it has one) before and after
	// the first list.
	listed := map[Phase]bool{}
	for _, p := range phases {
		listed[p] = true
	}
	for p := Phase(0); p.String() != "unknown"; p++ {
		if !listed[p] {
			t.Errorf("phase %s missing from the table", p)
		}
	}
	classes := []apierr.Class{apierr.Transient, apierr.Forbidden, apierr.NotFound, apierr.MethodNotSupported, apierr.Unauthorized,
		apierr.BadRequest}
	for k := evConnected; k <= evStopped; k++ {
		for _, c := range classes {
			if c != apierr.Transient && k != evDisconnected && k != evWatchError {
				continue
			}
			for _, synced := range either {
				if !covered[fmt.Sprint(ev(k, c), synced)] {
					t.Errorf("no test for event %v with synced %v", ev(k, c), synced)
				}
			}
		}
	}
}

func TestPhaseTerminalAndString(t *testing.T) {
	tests := []struct {
		p        Phase
		terminal bool
		text     string
	}{
		{Listing, false, "listing"}, {Synced, false, "synced"}, {Reconnecting, false, "reconnecting"},
		{Forbidden, true, "forbidden"}, {NotFound, true, "not found"},
		{MethodNotSupported, true, "method not supported"}, {Unauthorized, true, "unauthorized"},
		{BadRequest, true, "bad request"},
		{Stopped, true, "stopped"}, {Phase(99), false, "unknown"},
	}
	for _, tt := range tests {
		if tt.p.Terminal() != tt.terminal || tt.p.String() != tt.text {
			t.Errorf("Phase(%d): Terminal %v String %q, want %v %q", tt.p, tt.p.Terminal(), tt.p.String(), tt.terminal, tt.text)
		}
	}
}
