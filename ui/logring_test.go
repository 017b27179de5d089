package ui

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func ringLines(r *logRing) []string {
	var out []string
	for seq := r.dropped(); seq < r.next(); seq++ {
		l, ok := r.at(seq)
		if !ok {
			panic(fmt.Sprintf("line %d missing", seq))
		}
		out = append(out, l.text)
	}
	return out
}

func TestLogRingKeepsTheLast(t *testing.T) {
	for _, tc := range []struct {
		capacity, pushed int
		want             string
		dropped          int64
	}{
		{capacity: 3, pushed: 2, want: "1 2", dropped: 0},
		{capacity: 3, pushed: 3, want: "1 2 3", dropped: 0},
		{capacity: 3, pushed: 7, want: "5 6 7", dropped: 4},
		{capacity: 1, pushed: 5, want: "5", dropped: 4},
	} {
		r := newLogRing(tc.capacity)
		for i := 1; i <= tc.pushed; i++ {
			r.push(logLine{text: fmt.Sprint(i)})
		}
		if got := strings.Join(ringLines(r), " "); got != tc.want || r.dropped() != tc.dropped {
			t.Errorf("capacity %d, %d pushed: kept %q dropped %d, want %q dropped %d", tc.capacity, tc.pushed, got, r.dropped(), tc.want, tc.dropped)
		}
		if _, ok := r.at(r.dropped() - 1); ok && r.dropped() > 0 {
			t.Errorf("a dropped line is still there")
		}
	}
	r := newLogRing(4)
	r.push(logLine{text: "a"}, logLine{text: "b"})
	r.lose(10)
	r.push(logLine{text: "c"})
	if got := strings.Join(ringLines(r), " "); got != "c" || r.dropped() != 12 {
		t.Errorf("after lose(10): kept %q dropped %d, want c and 12 (the 2 kept and the 10 lost)", got, r.dropped())
	}
}

func TestLogRingSearch(t *testing.T) {
	r := newLogRing(5)
	for i := 1; i <= 7; i++ { // keeps 3..7
		r.push(logLine{text: fmt.Sprintf("line %d", i), stamp: "2026-12-01T10:00:0" + fmt.Sprint(i) + "Z"})
	}
	r.setSearch(regexp.MustCompile(`[357]$`), false)
	if r.hits != 3 {
		t.Fatalf("hits %d, want 3", r.hits)
	}
	for _, tc := range []struct {
		from    int64
		forward bool
		want    int64
	}{
		{from: 1, forward: true, want: 2}, // from before the oldest kept: the first hit (line 3, seq 2)
		{from: 2, forward: true, want: 4},
		{from: 6, forward: true, want: 2}, // wraps around
		{from: 2, forward: false, want: 6},
		{from: 5, forward: false, want: 4},
	} {
		if got, ok := r.nextHit(tc.from, tc.forward); !ok || got != tc.want {
			t.Errorf("nextHit(%d, %v) = %d %v, want %d", tc.from, tc.forward, got, ok, tc.want)
		}
	}
	if rank := r.hitRank(4); rank != 2 {
		t.Errorf("hitRank(4) = %d, want 2", rank)
	}
	r.push(logLine{text: "line 8"}, logLine{text: "line 9"}) // drops 3 and 4: one hit fewer
	if r.hits != 2 {
		t.Errorf("hits after dropping a match %d, want 2", r.hits)
	}
	r.setSearch(regexp.MustCompile(`T10:00:05Z`), true) // the timestamps shown: matched too
	if r.hits != 1 {
		t.Errorf("hits on a timestamp %d, want 1", r.hits)
	}
	r.setSearch(nil, false)
	if _, ok := r.nextHit(0, true); ok || r.hits != 0 {
		t.Errorf("no search still finds hits")
	}
}

func TestParseLogLine(t *testing.T) {
	for _, tc := range []struct {
		raw, stamp, text string
	}{
		{raw: "2026-12-01T10:00:00.123456789Z hello world", stamp: "2026-12-01T10:00:00.123456789Z", text: "hello world"},
		{raw: "2026-12-01T10:00:00Z ", stamp: "2026-12-01T10:00:00Z", text: ""},
		{raw: "2026-12-01T10:00:00Z", stamp: "2026-12-01T10:00:00Z", text: ""},
		{raw: "no timestamp here", stamp: "", text: "no timestamp here"},
		{raw: "", stamp: "", text: ""},
	} {
		l := parseLogLine(tc.raw)
		if l.stamp != tc.stamp || l.text != tc.text || (tc.stamp != "") == l.at.IsZero() {
			t.Errorf("parseLogLine(%q) = %+v, want stamp %q text %q", tc.raw, l, tc.stamp, tc.text)
		}
		if want := tc.stamp + " " + tc.text; tc.stamp != "" && l.display(true) != want {
			t.Errorf("display with timestamps %q, want %q", l.display(true), want)
		}
		if l.display(false) != tc.text {
			t.Errorf("display without timestamps %q, want %q", l.display(false), tc.text)
		}
	}
}

func TestReadLogLineCutsAndSaysSo(t *testing.T) {
	long := strings.Repeat("x", maxLogLine+100)
	br := bufio.NewReaderSize(strings.NewReader("short\r\n"+long+"\nlast"), 64<<10)
	for i, want := range []string{"short", long[:maxLogLine] + fmt.Sprintf(" …[kscope: line cut at %d bytes]", maxLogLine), "last"} {
		got, err := readLogLine(br)
		if got != want {
			t.Fatalf("line %d: %d bytes %.40q…, want %d bytes", i, len(got), got, len(want))
		}
		if i == 2 && err == nil {
			t.Fatalf("the last line without a newline: want EOF with it")
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                   "plain",
		"\x1b[31mred\x1b[0m text": "red text",
		"a\tb":                    "a       b",
		"12345678\tx":             "12345678        x",
		"bell\x07":                "bell\uFFFD",
		"\x1b]0;title\x07after":   "after",
		"ünïcode\tx":              "ünïcode x",
		"[red]not a tag[-]":       "[red]not a tag[-]",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width int
		wrap  bool
		want  [][2]int
	}{
		{text: "abcdef", width: 4, wrap: true, want: [][2]int{{0, 4}, {4, 6}}},
		{text: "abcdef", width: 4, wrap: false, want: [][2]int{{0, 4}}},
		{text: "abcd", width: 4, wrap: true, want: [][2]int{{0, 4}}},
		{text: "", width: 4, wrap: true, want: [][2]int{{0, 0}}},
		{text: "日本語", width: 4, wrap: true, want: [][2]int{{0, 6}, {6, 9}}}, // two cells each
	} {
		got := segments(tc.text, tc.width, tc.wrap)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("segments(%q, %d, %v) = %v, want %v", tc.text, tc.width, tc.wrap, got, tc.want)
		}
	}
}

// TestLogRingKeepsItsByteBudget: long lines are kept within maxBytes, whatever the line capacity, the oldest
// dropped first; a line longer than the whole budget is still kept alone (the newest is always shown); the
// size counts what the ring holds.
func TestLogRingKeepsItsByteBudget(t *testing.T) {
	r := newLogRing(5000)
	r.maxBytes = 10_000
	line := func(i int) logLine { return logLine{text: fmt.Sprintf("%04d", i) + strings.Repeat("x", 996)} }
	for i := 1; i <= 100; i++ {
		r.push(line(i))
	}
	per := line(0).size()
	if r.len() != 10_000/per || r.size() != r.len()*per || r.size() > r.maxBytes {
		t.Fatalf("kept %d lines of %d bytes (size %d), budget %d", r.len(), per, r.size(), r.maxBytes)
	}
	if got := ringLines(r); !strings.HasPrefix(got[len(got)-1], "0100") || r.dropped() != int64(100-r.len()) {
		t.Fatalf("kept %d lines ending %q, dropped %d", len(got), got[len(got)-1][:4], r.dropped())
	}
	r.setSearch(regexp.MustCompile(`^009`), false) // the 9 kept: 0092 … 0100
	if r.hits != 8 {
		t.Fatalf("%d hits among %d lines, want 8 (0092 … 0099)", r.hits, r.len())
	}
	r.push(logLine{text: strings.Repeat("y", 20_000)})
	if r.len() != 1 || r.hits != 0 || r.size() != 20_000+logLineOverhead {
		t.Fatalf("after a line over the budget: %d lines, %d hits, size %d", r.len(), r.hits, r.size())
	}
	r.clear()
	if r.size() != 0 || r.len() != 0 {
		t.Fatalf("after clear: %d lines, size %d", r.len(), r.size())
	}
}
