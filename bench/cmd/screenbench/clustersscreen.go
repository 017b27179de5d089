package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A table over several clusters is titled RESOURCE @CTX,@CTX…(NAMESPACE)[COUNT], and its status line has one
// word per cluster after the table's own state: "admin synced · second listing 300 of 10000 · third synced".
var multiTitleCount = regexp.MustCompile(`pods @([^\s()\[\]]+)\(([^)]*)\)\[([0-9,]+)\]`)

// multiTitle is what the title of a table over several clusters says.
type multiTitle struct {
	contexts []string // the clusters, in the title's order
	scope    string   // the namespace in parentheses
	count    int      // the row count in brackets
	listing  bool     // the title says a first list is still arriving
}

// multiTitleOf reads the title of a table over several clusters from the screen; ok is false when none
// shows.
func multiTitleOf(screen []string) (t multiTitle, ok bool) {
	for _, line := range screen {
		m := multiTitleCount.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(line[m[6]:m[7]], ",", ""))
		if err != nil {
			continue
		}
		return multiTitle{contexts: strings.Split(line[m[2]:m[3]], ",@"), scope: line[m[4]:m[5]], count: n,
			listing: listingOf.MatchString(line[m[1]:])}, true
	}
	return multiTitle{}, false
}

// clusterStates reads the status line's word for each of contexts ("synced", "listing 300 of 10000",
// "unreachable: …"); ok is false when no line names them all, in order, separated by " · ".
func clusterStates(screen []string, contexts []string) (states []string, ok bool) {
	if len(contexts) == 0 {
		return nil, false
	}
	for _, line := range screen {
		for at := 0; ; {
			i := strings.Index(line[at:], contexts[0]+" ")
			if i < 0 {
				break
			}
			i += at
			at = i + 1
			if i > 0 && line[i-1] != ' ' {
				continue
			}
			note := line[i:]
			if end := strings.Index(note, "  "); end >= 0 { // the next part of the status line
				note = note[:end]
			}
			parts := strings.Split(note, " · ")
			if len(parts) != len(contexts) {
				continue
			}
			states = states[:0]
			for j, part := range parts {
				word, found := strings.CutPrefix(part, contexts[j]+" ")
				if !found {
					break
				}
				states = append(states, strings.TrimSpace(word))
			}
			if len(states) == len(contexts) {
				return states, true
			}
		}
	}
	return nil, false
}

// allSynced tells whether the status line says every one of contexts is synced.
func allSynced(screen []string, contexts []string) bool {
	states, ok := clusterStates(screen, contexts)
	return ok && !slices.ContainsFunc(states, func(s string) bool { return s != "synced" })
}
