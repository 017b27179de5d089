package logs

import (
	"bufio"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func ringLines(r *Ring) []string {
	var out []string
	for seq := r.Dropped(); seq < r.Next(); seq++ {
		l, ok := r.At(seq)
		if !ok {
			panic(fmt.Sprintf("line %d missing", seq))
		}
		out = append(out, l.Text)
	}
	return out
}

func TestRingKeepsTheLast(t *testing.T) {
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
		r := NewRing(tc.capacity)
		for i := 1; i <= tc.pushed; i++ {
			r.Push(Line{Text: fmt.Sprint(i)})
		}
		if got := strings.Join(ringLines(r), " "); got != tc.want || r.Dropped() != tc.dropped {
			t.Errorf("capacity %d, %d pushed: kept %q dropped %d, want %q dropped %d", tc.capacity, tc.pushed, got, r.Dropped(), tc.want, tc.dropped)
		}
		if _, ok := r.At(r.Dropped() - 1); ok && r.Dropped() > 0 {
			t.Errorf("a dropped line is still there")
		}
	}
	r := NewRing(4)
	r.Push(Line{Text: "a"}, Line{Text: "b"})
	r.Lose(10)
	r.Push(Line{Text: "c"})
	if got := strings.Join(ringLines(r), " "); got != "c" || r.Dropped() != 12 {
		t.Errorf("after lose(10): kept %q dropped %d, want c and 12 (the 2 kept and the 10 lost)", got, r.Dropped())
	}
}

func TestRingSearch(t *testing.T) {
	r := NewRing(5)
	for i := 1; i <= 7; i++ { // keeps 3..7
		r.Push(Line{Text: fmt.Sprintf("line %d", i), Stamp: "2026-12-01T10:00:0" + fmt.Sprint(i) + "Z"})
	}
	r.SetSearch(regexp.MustCompile(`[357]$`), false)
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
		if got, ok := r.NextHit(tc.from, tc.forward); !ok || got != tc.want {
			t.Errorf("nextHit(%d, %v) = %d %v, want %d", tc.from, tc.forward, got, ok, tc.want)
		}
	}
	if rank := r.HitRank(4); rank != 2 {
		t.Errorf("hitRank(4) = %d, want 2", rank)
	}
	r.Push(Line{Text: "line 8"}, Line{Text: "line 9"}) // drops 3 and 4: one hit fewer
	if r.hits != 2 {
		t.Errorf("hits after dropping a match %d, want 2", r.hits)
	}
	r.SetSearch(regexp.MustCompile(`T10:00:05Z`), true) // the timestamps shown: matched too
	if r.hits != 1 {
		t.Errorf("hits on a timestamp %d, want 1", r.hits)
	}
	r.SetSearch(nil, false)
	if _, ok := r.NextHit(0, true); ok || r.hits != 0 {
		t.Errorf("no search still finds hits")
	}
}

func TestParseLine(t *testing.T) {
	for _, tc := range []struct {
		raw, stamp, text string
	}{
		{raw: "2026-12-01T10:00:00.123456789Z hello world", stamp: "2026-12-01T10:00:00.123456789Z", text: "hello world"},
		{raw: "2026-12-01T10:00:00Z ", stamp: "2026-12-01T10:00:00Z", text: ""},
		{raw: "2026-12-01T10:00:00Z", stamp: "2026-12-01T10:00:00Z", text: ""},
		{raw: "no timestamp here", stamp: "", text: "no timestamp here"},
		{raw: "", stamp: "", text: ""},
	} {
		l := parseLine(tc.raw)
		if l.Stamp != tc.stamp || l.Text != tc.text || (tc.stamp != "") == l.At.IsZero() {
			t.Errorf("parseLine(%q) = %+v, want stamp %q text %q", tc.raw, l, tc.stamp, tc.text)
		}
		if want := tc.stamp + " " + tc.text; tc.stamp != "" && l.Display(true) != want {
			t.Errorf("display with timestamps %q, want %q", l.Display(true), want)
		}
		if l.Display(false) != tc.text {
			t.Errorf("display without timestamps %q, want %q", l.Display(false), tc.text)
		}
	}
}

func TestReadLineCutsAndSaysSo(t *testing.T) {
	long := strings.Repeat("x", maxLine+100)
	br := bufio.NewReaderSize(strings.NewReader("short\r\n"+long+"\nlast"), 64<<10)
	for i, want := range []string{"short", long[:maxLine] + fmt.Sprintf(" …[kscope: line cut at %d bytes]", maxLine), "last"} {
		got, err := readLine(br)
		if got != want {
			t.Fatalf("line %d: %d bytes %.40q…, want %d bytes", i, len(got), got, len(want))
		}
		if i == 2 && err == nil {
			t.Fatalf("the last line without a newline: want EOF with it")
		}
	}
}

// TestRingKeepsItsByteBudget: long lines are kept within ByteBudget (NewRing's), whatever the line capacity, the oldest
// dropped first; a line longer than the whole budget is still kept alone (the newest is always shown); the
// size counts what the ring holds.
func TestRingKeepsItsByteBudget(t *testing.T) {
	r := NewRing(5000) // the budget NewRing gives, ByteBudget: lines a tenth of it (and their overhead) long
	if r.Budget() != ByteBudget {
		t.Fatalf("budget %d, want ByteBudget (%d)", r.Budget(), ByteBudget)
	}
	body := strings.Repeat("x", ByteBudget/10-4)
	line := func(i int) Line { return Line{Text: fmt.Sprintf("%04d", i) + body} }
	for i := 1; i <= 100; i++ {
		r.Push(line(i))
	}
	per := line(0).Size()
	if r.Len() != ByteBudget/per || r.Len() != 9 || r.Size() != r.Len()*per || r.Size() > ByteBudget {
		t.Fatalf("kept %d lines of %d bytes (size %d), budget %d", r.Len(), per, r.Size(), ByteBudget)
	}
	if got := ringLines(r); !strings.HasPrefix(got[len(got)-1], "0100") || r.Dropped() != int64(100-r.Len()) {
		t.Fatalf("kept %d lines ending %q, dropped %d", len(got), got[len(got)-1][:4], r.Dropped())
	}
	r.SetSearch(regexp.MustCompile(`^009`), false) // the 9 kept: 0092 … 0100
	if r.hits != 8 {
		t.Fatalf("%d hits among %d lines, want 8 (0092 … 0099)", r.hits, r.Len())
	}
	r.Push(Line{Text: strings.Repeat("y", ByteBudget+1)})
	if r.Len() != 1 || r.hits != 0 || r.Size() != ByteBudget+1+lineOverhead {
		t.Fatalf("after a line over the budget: %d lines, %d hits, size %d", r.Len(), r.hits, r.Size())
	}
	r.Clear()
	if r.Size() != 0 || r.Len() != 0 {
		t.Fatalf("after clear: %d lines, size %d", r.Len(), r.Size())
	}
}
