package main

import (
	"regexp"
	"strconv"
	"strings"
)

// A screen is the text of a pane as capture-pane prints it. Both kscope and k9s title the table
// RESOURCE(NAMESPACE)[COUNT], with NAMESPACE "all" in all namespaces (k9s writes the count with thousands
// separators). While its first list is still arriving in pages, kscope adds "listing N of M…" after the count.
var (
	titleCount = regexp.MustCompile(`pods\(([^)]*)\)\[([0-9,]+)\]`)
	listingOf  = regexp.MustCompile(`^\s*listing [0-9,]+ of [0-9,]+`)
	podName    = regexp.MustCompile(`\bscale-[0-9]{6}\b`)
)

// tableTitle is what the table's title says.
type tableTitle struct {
	scope   string // the namespace in parentheses, "all" in all namespaces
	count   int    // the row count in brackets
	listing bool   // the title says the first list is still arriving
}

// titleOf reads the table's title from the screen; ok is false when no title shows.
func titleOf(screen []string) (t tableTitle, ok bool) {
	for _, line := range screen {
		m := titleCount.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(line[m[4]:m[5]], ",", ""))
		if err != nil {
			continue
		}
		return tableTitle{scope: line[m[2]:m[3]], count: n, listing: listingOf.MatchString(line[m[1]:])}, true
	}
	return tableTitle{}, false
}

// rowCount returns the count in the table's title, or -1 when no title shows.
func rowCount(screen []string) int {
	if t, ok := titleOf(screen); ok {
		return t.count
	}
	return -1
}

// visiblePods returns the pod names shown, top to bottom (one per line).
func visiblePods(screen []string) []string {
	var names []string
	for _, line := range screen {
		if m := podName.FindString(line); m != "" {
			names = append(names, m)
		}
	}
	return names
}

// order tells how the visible pod names are sorted: 1 ascending, -1 descending, 0 neither (or too few).
func order(screen []string) int {
	names := visiblePods(screen)
	if len(names) < 3 {
		return 0
	}
	asc, desc := true, true
	for i := 1; i < len(names); i++ {
		if names[i] < names[i-1] {
			asc = false
		}
		if names[i] > names[i-1] {
			desc = false
		}
	}
	switch {
	case asc:
		return 1
	case desc:
		return -1
	}
	return 0
}

// lineOf returns the screen line that shows pod name, or "".
func lineOf(screen []string, name string) string {
	for _, line := range screen {
		if strings.Contains(line, name) {
			return line
		}
	}
	return ""
}
