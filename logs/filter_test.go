package logs

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseFilter(t *testing.T) {
	lines := []string{"GET /api 200", "get /healthz 200", "POST /api 500", "!important", ""}
	for _, tc := range []struct {
		text, err string
		nilFilter bool
		keep      []bool // per line
	}{
		{text: "", nilFilter: true, keep: []bool{true, true, true, true, true}},
		{text: "!", nilFilter: true, keep: []bool{true, true, true, true, true}},
		{text: "get", keep: []bool{true, true, false, false, false}},     // smart case: all lower, insensitive
		{text: "GET", keep: []bool{true, false, false, false, false}},    // a capital: sensitive
		{text: "!get", keep: []bool{false, false, true, true, true}},     // inverted
		{text: "!5\\d\\d$", keep: []bool{true, true, false, true, true}}, // inverted regex
		{text: `\!imp`, keep: []bool{false, false, false, true, false}},  // a literal "!" at the start
		{text: "/api|healthz", keep: []bool{true, true, true, false, false}},
		{text: "(a", err: `not a regular expression: "(a" (missing closing ): ` + "`(?i)(a`)"},
		{text: "![", err: `not a regular expression: "[" (missing closing ]: ` + "`[`)"},
	} {
		f, err := ParseFilter(tc.text)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err || strings.Contains(err.Error(), "\n") {
				t.Errorf("ParseFilter(%q): error %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || (f == nil) != tc.nilFilter {
			t.Errorf("ParseFilter(%q) = %v, %v", tc.text, f, err)
			continue
		}
		for i, l := range lines {
			if got := f.Keep(l); got != tc.keep[i] {
				t.Errorf("filter %q keeps %q: %v, want %v", tc.text, l, got, tc.keep[i])
			}
		}
		if f != nil && (f.String() != tc.text || f.Inverted() != strings.HasPrefix(tc.text, "!")) {
			t.Errorf("filter %q: String %q, Inverted %v", tc.text, f.String(), f.Inverted())
		}
	}
}

// shownTexts is the text of the ring's lines the filter does not hide, oldest first.
func shownTexts(r *Ring) []string {
	var out []string
	for seq, ok := r.NextShown(r.Dropped()); ok; seq, ok = r.NextShown(seq + 1) {
		l, _ := r.At(seq)
		out = append(out, l.Text)
	}
	return out
}

func TestRingFilter(t *testing.T) {
	for _, tc := range []struct {
		name, filter string
		timestamps   bool
		want         string // the lines shown after 1..7 were pushed (3..7 kept), then 8 and 9
	}{
		{name: "none", filter: "", want: "5 6 7 8 9"},
		{name: "odd", filter: "[13579]$", want: "5 7 9"},
		{name: "inverted", filter: "![13579]$", want: "6 8"},
		{name: "none match", filter: "nothing", want: ""},
		{name: "the stamp, hidden", filter: "10:00:08", want: ""},
		{name: "the stamp, shown", filter: "10:00:08", timestamps: true, want: "8"},
	} {
		r := NewRing(5)
		for i := 1; i <= 7; i++ {
			r.Push(Line{Text: fmt.Sprintf("line %d", i), Stamp: fmt.Sprintf("2026-12-01T10:00:0%dZ", i)})
		}
		f, err := ParseFilter(tc.filter)
		if err != nil {
			t.Fatal(err)
		}
		r.SetFilter(f, tc.timestamps)
		r.Push(Line{Text: "line 8", Stamp: "2026-12-01T10:00:08Z"}, Line{Text: "line 9", Stamp: "2026-12-01T10:00:09Z"})
		got := strings.Join(shownTexts(r), " ")
		got = strings.ReplaceAll(got, "line ", "")
		if got != tc.want || r.Shown() != len(strings.Fields(tc.want)) || r.Len() != 5 {
			t.Errorf("%s: shown %q (Shown %d of %d), want %q", tc.name, got, r.Shown(), r.Len(), tc.want)
		}
	}
}

func TestRingFilterAndSearch(t *testing.T) {
	r := NewRing(10)
	for i := 1; i <= 6; i++ {
		r.Push(Line{Text: fmt.Sprintf("line %d", i)})
	}
	re, _ := CompileSmartCase("line [1-4]")
	r.SetSearch(re, false)
	f, _ := ParseFilter("![12]$")
	r.SetFilter(f, false)
	if r.Hits() != 2 || r.Shown() != 4 {
		t.Fatalf("hits %d shown %d, want 2 (lines 3, 4: 1 and 2 are hidden) and 4", r.Hits(), r.Shown())
	}
	if seq, ok := r.NextHit(3, true); !ok || seq != 2 {
		t.Fatalf("next hit after line 4 is %d (%v), want line 3 (seq 2): hidden lines are no hits", seq, ok)
	}
	if seq, ok := r.PrevShown(1); ok {
		t.Fatalf("a line shown at or before line 2: %d", seq)
	}
	if seq, ok := r.PrevShown(100); !ok || seq != 5 {
		t.Fatalf("last line shown %d (%v), want seq 5", seq, ok)
	}
	r.SetFilter(nil, false)
	if r.Hits() != 4 || r.Shown() != 6 {
		t.Fatalf("without the filter: hits %d shown %d, want 4 and 6", r.Hits(), r.Shown())
	}
	// dropping lines counts them out
	r2 := NewRing(2)
	r2.SetFilter(f, false)
	for i := 1; i <= 5; i++ {
		r2.Push(Line{Text: fmt.Sprintf("line %d", i)})
	}
	if r2.Shown() != 2 {
		t.Fatalf("ring of 2 after 5 pushed: shown %d, want 2", r2.Shown())
	}
	r2.Clear()
	if r2.Shown() != 0 {
		t.Fatalf("cleared: shown %d", r2.Shown())
	}
}
