package main

import (
	"slices"
	"testing"
)

func TestMultiTitleOf(t *testing.T) {
	tests := []struct {
		name   string
		screen []string
		want   multiTitle
		ok     bool
	}{
		{"three clusters", []string{"Context: admin", "╔═══ pods @admin,@second,@third(bench-clusters-10000)[30000] ═══╗"},
			multiTitle{contexts: []string{"admin", "second", "third"}, scope: "bench-clusters-10000", count: 30000}, true},
		{"thousands separators", []string{"╔ pods @a,@b(ns)[20,000] ╗"},
			multiTitle{contexts: []string{"a", "b"}, scope: "ns", count: 20000}, true},
		{"still listing", []string{"╔ pods @a,@b(ns)[300] listing 300 of 20000… ╗"},
			multiTitle{contexts: []string{"a", "b"}, scope: "ns", count: 300, listing: true}, true},
		{"one cluster's table", []string{"╔ pods(ns)[10000] ╗"}, multiTitle{}, false},
		{"no count yet", []string{"╔ pods @a,@b(ns) ╗"}, multiTitle{}, false},
		{"the command bar, not a title", []string{"<pods @admin,@second>"}, multiTitle{}, false},
		{"empty screen", nil, multiTitle{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := multiTitleOf(tt.screen)
			if ok != tt.ok || !slices.Equal(got.contexts, tt.want.contexts) || got.scope != tt.want.scope ||
				got.count != tt.want.count || got.listing != tt.want.listing {
				t.Errorf("multiTitleOf = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestClusterStates(t *testing.T) {
	three := []string{"admin", "second", "third"}
	tests := []struct {
		name     string
		line     string
		contexts []string
		want     []string
		synced   bool
	}{
		{"all synced", "synced  30000/30000  admin synced · second synced · third synced", three,
			[]string{"synced", "synced", "synced"}, true},
		{"followed by the pulse", "synced  90/90  admin synced · second synced · third synced  pulse 3/s", three,
			[]string{"synced", "synced", "synced"}, true},
		{"one listing", "listing  10300/10300  admin synced · second listing 300 of 10000 · third synced", three,
			[]string{"synced", "listing 300 of 10000", "synced"}, false},
		{"one connecting", "listing  0/0  admin synced · second connecting · third unreachable: dial tcp: refused", three,
			[]string{"synced", "connecting", "unreachable: dial tcp: refused"}, false},
		{"a cluster missing", "synced  20000/20000  admin synced · second synced", three, nil, false},
		{"another order", "synced  9/9  second synced · admin synced · third synced", three, nil, false},
		{"a longer context name", "synced  9/9  xadmin synced · second synced · third synced", three, nil, false},
		{"the context also earlier on the line", "Context: admin  admin synced · second synced · third synced", three,
			[]string{"synced", "synced", "synced"}, true},
		{"a single cluster's status line", "synced  30/30  pulse no events yet", three, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			screen := []string{"Context: x", tt.line, ""}
			got, ok := clusterStates(screen, tt.contexts)
			if ok != (tt.want != nil) || !slices.Equal(got, tt.want) {
				t.Errorf("clusterStates = %q, %v; want %q", got, ok, tt.want)
			}
			if s := allSynced(screen, tt.contexts); s != tt.synced {
				t.Errorf("allSynced = %v, want %v", s, tt.synced)
			}
		})
	}
}
