package history

import (
	"fmt"
	"strings"
	"testing"
)

// render shows a diff as "-x", "+x", " x" and "~n" (a fold of n lines), space-separated.
func renderDiff(lines []FoldedLine) string {
	var out []string
	for _, l := range lines {
		switch {
		case l.Fold > 0:
			out = append(out, fmt.Sprintf("~%d", l.Fold))
		case l.Op == DiffRemoved:
			out = append(out, "-"+l.Text)
		case l.Op == DiffAdded:
			out = append(out, "+"+l.Text)
		default:
			out = append(out, " "+l.Text)
		}
	}
	return strings.Join(out, " ")
}

func TestDiffLines(t *testing.T) {
	cases := []struct {
		a, b string
		want string
	}{
		{"", "", ""},
		{"a b c", "a b c", "~3"}, // nothing changed: all folded
		{"a b c", "a x c", " a -b +x  c"},
		{"", "a b", "+a +b"},
		{"a b", "", "-a -b"},
		{"a b c d", "a c d e", " a -b  c  d +e"},
		{"x a b", "a b y", "-x  a  b +y"},
		{"a b c", "c b a", "+c +b  a -b -c"}, // one of the shortest scripts: difflib keeps the first match
		// A large rewrite stays cheap: difflib's matcher holds no O(N·D) trace.
		{strings.Repeat("x ", 3000) + "k", "k " + strings.Repeat("y ", 3000), "-" + strings.TrimSuffix(strings.Repeat("x -", 3000), " -") + "  k +" + strings.TrimSuffix(strings.Repeat("y +", 3000), " +")},
		{"r: 1 s: 2 t: 3", "r: 1 s: 5 t: 3", " r:  1  s: -2 +5  t:  3"},
	}
	for _, c := range cases {
		got := renderDiff(FoldDiff(DiffLines(strings.Fields(c.a), strings.Fields(c.b)), 100))
		if got != c.want {
			t.Errorf("diff %q → %q = %q, want %q", c.a, c.b, got, c.want)
		}
		// Applying the script to a gives b.
		var rebuilt, kept []string
		for _, l := range DiffLines(strings.Fields(c.a), strings.Fields(c.b)) {
			if l.Op != DiffRemoved {
				rebuilt = append(rebuilt, l.Text)
			}
			if l.Op != DiffAdded {
				kept = append(kept, l.Text)
			}
		}
		if strings.Join(rebuilt, " ") != strings.Join(strings.Fields(c.b), " ") || strings.Join(kept, " ") != strings.Join(strings.Fields(c.a), " ") {
			t.Errorf("diff %q → %q does not rebuild both sides", c.a, c.b)
		}
	}
}

func TestFoldDiff(t *testing.T) {
	lines := func(n int, change ...int) ([]string, []string) {
		var a, b []string
		for i := 0; i < n; i++ {
			a = append(a, fmt.Sprint(i))
			b = append(b, fmt.Sprint(i))
		}
		for _, c := range change {
			b[c] = "x"
		}
		return a, b
	}
	cases := []struct {
		name    string
		n       int
		change  []int
		context int
		want    string
	}{
		{"no change folds everything", 5, nil, 3, "~5"},
		{"change in the middle", 20, []int{10}, 2, "~8  8  9 -10 +x  11  12 ~7"},
		{"changes close together share context", 20, []int{5, 8}, 2, "~3  3  4 -5 +x  6  7 -8 +x  9  10 ~9"},
		{"change at the start", 10, []int{0}, 1, "-0 +x  1 ~8"},
		{"a fold of one line", 7, []int{0, 6}, 2, "-0 +x  1  2 ~1  4  5 -6 +x"},
	}
	for _, c := range cases {
		a, b := lines(c.n, c.change...)
		if got := renderDiff(FoldDiff(DiffLines(a, b), c.context)); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestChangedLines(t *testing.T) {
	cases := []struct {
		a, b string
		want string
	}{
		{"a b c", "a b c", "..."},
		{"a b c", "a x c", ".x."},
		{"a b", "a b c d", "..xx"},
		{"a b c", "b c", ".."},
	}
	for _, c := range cases {
		var got strings.Builder
		for _, ch := range ChangedLines(strings.Fields(c.a), strings.Fields(c.b)) {
			if ch {
				got.WriteByte('x')
			} else {
				got.WriteByte('.')
			}
		}
		if got.String() != c.want {
			t.Errorf("changed %q → %q = %q, want %q", c.a, c.b, got.String(), c.want)
		}
	}
}
