package watch

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// Filter keeps the rows a user asked for. The zero Filter keeps every row. Build one with ParseFilter;
// a Filter is immutable and safe to use from any goroutine.
type Filter struct {
	text string
	re   *regexp.Regexp
	// lit is the lower-cased text when it is plain ASCII without regular-expression syntax; it is matched as a
	// case-insensitive substring without the regexp engine (same result, several times faster).
	lit string
	// need is a lower-case ASCII literal that every match of re contains; cells without it skip the regexp.
	need   string
	labels labels.Selector
}

// ParseFilter parses what the user typed after `/`:
//   - "-l SELECTOR" keeps rows whose labels match the label selector (kubectl syntax: app=x,tier!=db, env in (a,b));
//   - anything else is a case-insensitive regular expression matched against the row's cells
//     (plain text works as a substring).
//
// It returns a one-line error for an invalid selector or regular expression.
func ParseFilter(text string) (Filter, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Filter{}, nil
	}
	if rest, ok := strings.CutPrefix(text, "-l "); ok {
		sel, err := labels.Parse(strings.TrimSpace(rest))
		if err != nil {
			return Filter{}, fmt.Errorf("invalid label selector %q: %w", strings.TrimSpace(rest), err)
		}
		return Filter{text: text, labels: sel}, nil
	}
	re, err := regexp.Compile("(?i)" + text)
	if err != nil {
		return Filter{}, fmt.Errorf("invalid regular expression %q: %w", text, err)
	}
	f := Filter{text: text, re: re}
	if regexp.QuoteMeta(text) == text && isASCII(text) && !strings.ContainsAny(text, "\n\r\f") {
		f.lit = strings.ToLower(text)
	} else if need := requiredLiteral(text); isASCII(need) {
		f.need = strings.ToLower(need)
	}
	return f, nil
}

// requiredLiteral returns the longest literal that every match of the regular expression expr must contain
// (one element of its top-level concatenation), or "".
func requiredLiteral(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl|syntax.FoldCase)
	if err != nil {
		return ""
	}
	re = re.Simplify()
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	switch re.Op {
	case syntax.OpLiteral:
		return string(re.Rune)
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			if sub.Op == syntax.OpLiteral && len(string(sub.Rune)) > len(best) {
				best = string(sub.Rune)
			}
		}
		return best
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// containsFoldASCII tells whether s contains lower (lower-case ASCII), ignoring ASCII case.
func containsFoldASCII(s, lower string) bool {
	n := len(lower)
	if n == 0 {
		return true
	}
	first, upper := lower[0], lower[0]
	if first >= 'a' && first <= 'z' {
		upper = first - 'a' + 'A'
	}
	for i := 0; i+n <= len(s); i++ {
		if c := s[i]; c != first && c != upper {
			continue
		}
		j := 1
		for ; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// String returns the text the filter was parsed from.
func (f Filter) String() string { return f.text }

// Empty tells whether the filter keeps every row.
func (f Filter) Empty() bool { return f.re == nil && f.labels == nil }

// Match tells whether row passes the filter, its cells as stored.
func (f Filter) Match(row *Row) bool { return f.MatchShown(row, -1, "") }

// MatchShown tells whether row passes the filter as the table shows it: cell ageCell (-1 for none) reads
// age, the age recomputed from the creation time, instead of the server's text from when it was listed.
// Row.text never holds an age cell (see searchText), so the fast paths stay exact.
func (f Filter) MatchShown(row *Row, ageCell int, age string) bool {
	if ageCell < 0 || ageCell >= len(row.Cells) {
		ageCell, age = -1, ""
	}
	switch {
	case f.labels != nil:
		return f.labels.Matches(labels.Set(row.Labels))
	case f.lit != "" && row.text != "":
		return strings.Contains(row.text, f.lit) || (ageCell >= 0 && containsFoldASCII(age, f.lit))
	case f.lit != "":
		for i, cell := range row.Cells {
			if i == ageCell {
				cell = age
			}
			// Unicode case folding can match non-ASCII text (K, the Kelvin sign, folds to k): such cells go
			// through the regular expression.
			if isASCII(cell) {
				if containsFoldASCII(cell, f.lit) {
					return true
				}
			} else if f.re.MatchString(cell) {
				return true
			}
		}
		return false
	case f.re != nil:
		if f.need != "" && row.text != "" && !strings.Contains(row.text, f.need) &&
			(ageCell < 0 || !containsFoldASCII(age, f.need)) {
			return false
		}
		for i, cell := range row.Cells {
			if i == ageCell {
				cell = age
			}
			if f.need != "" && isASCII(cell) && !containsFoldASCII(cell, f.need) {
				continue
			}
			if f.re.MatchString(cell) {
				return true
			}
		}
		return false
	}
	return true
}

// agesMatter tells whether what the filter keeps can change with the passing of time alone: it looks at
// cells (not labels) and could match an age ("45s", "3m20s", "5d", "2y").
func (f Filter) agesMatter() bool {
	switch {
	case f.labels != nil || f.re == nil:
		return false
	case f.lit != "":
		return strings.Trim(f.lit, "0123456789smhdy") == ""
	}
	return true
}
