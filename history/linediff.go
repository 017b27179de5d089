package history

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// DiffOp is what a line of a diff does: kept, removed from the old text or added in the new one.
type DiffOp byte

const (
	// DiffSame is a line both texts have.
	DiffSame DiffOp = iota
	// DiffRemoved is a line of the old text only.
	DiffRemoved
	// DiffAdded is a line of the new text only.
	DiffAdded
)

// DiffLine is one line of a line diff: what it does, and the line without its newline.
type DiffLine struct {
	Op   DiffOp
	Text string
}

// TextLines splits text into lines without their newlines ("" has none).
func TextLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// DiffLines returns a line diff from a to b (difflib's matching blocks, Python difflib's algorithm, without
// its heuristic that treats frequent lines as junk: YAML repeats lines such as "- name: x"), removals before
// the additions that replace them.
func DiffLines(a, b []string) []DiffLine {
	// Strip the common head and tail: most versions differ in a few lines.
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	out := make([]DiffLine, 0, len(a)+len(b)-head-tail)
	add := func(op DiffOp, lines []string) {
		for _, l := range lines {
			out = append(out, DiffLine{op, l})
		}
	}
	add(DiffSame, a[:head])
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	for _, c := range difflib.NewMatcherWithJunk(ma, mb, false, nil).GetOpCodes() {
		switch c.Tag {
		case 'e':
			add(DiffSame, ma[c.I1:c.I2])
		case 'd':
			add(DiffRemoved, ma[c.I1:c.I2])
		case 'i':
			add(DiffAdded, mb[c.J1:c.J2])
		case 'r':
			add(DiffRemoved, ma[c.I1:c.I2])
			add(DiffAdded, mb[c.J1:c.J2])
		}
	}
	add(DiffSame, a[len(a)-tail:])
	return out
}

// ChangedLines returns, for each line of b, whether the diff from a to b adds it (the lines an update
// changed, as the new text numbers them).
func ChangedLines(a, b []string) []bool {
	out := make([]bool, len(b))
	i := 0
	for _, l := range DiffLines(a, b) {
		switch l.Op {
		case DiffSame:
			i++
		case DiffAdded:
			out[i] = true
			i++
		}
	}
	return out
}

// FoldedLine is a line of a folded diff: a line of the diff, or (Fold > 0) that many unchanged lines left
// out.
type FoldedLine struct {
	DiffLine
	Fold int
}

// FoldDiff keeps the changed lines and context unchanged lines around each, replacing every longer run of
// unchanged lines by one fold.
func FoldDiff(lines []DiffLine, context int) []FoldedLine {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.Op == DiffSame {
			continue
		}
		for j := max(i-context, 0); j <= min(i+context, len(lines)-1); j++ {
			keep[j] = true
		}
	}
	var out []FoldedLine
	for i := 0; i < len(lines); {
		if keep[i] {
			out = append(out, FoldedLine{DiffLine: lines[i]})
			i++
			continue
		}
		j := i
		for j < len(lines) && !keep[j] {
			j++
		}
		out = append(out, FoldedLine{Fold: j - i})
		i = j
	}
	return out
}
