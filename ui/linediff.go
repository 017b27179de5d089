package ui

import (
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// diffOp is what a line of a diff does: kept, removed from the old text or added in the new one.
type diffOp byte

const (
	diffSame diffOp = iota
	diffRemoved
	diffAdded
)

// diffLine is one line of a line diff.
type diffLine struct {
	op   diffOp
	text string
}

// textLines splits text into lines without their newlines ("" has none).
func textLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// diffLines returns a line diff from a to b (difflib's matching blocks, Python difflib's algorithm, without
// its heuristic that treats frequent lines as junk: YAML repeats lines such as "- name: x"), removals before
// the additions that replace them.
func diffLines(a, b []string) []diffLine {
	// Strip the common head and tail: most versions differ in a few lines.
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	out := make([]diffLine, 0, len(a)+len(b)-head-tail)
	add := func(op diffOp, lines []string) {
		for _, l := range lines {
			out = append(out, diffLine{op, l})
		}
	}
	add(diffSame, a[:head])
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	for _, c := range difflib.NewMatcherWithJunk(ma, mb, false, nil).GetOpCodes() {
		switch c.Tag {
		case 'e':
			add(diffSame, ma[c.I1:c.I2])
		case 'd':
			add(diffRemoved, ma[c.I1:c.I2])
		case 'i':
			add(diffAdded, mb[c.J1:c.J2])
		case 'r':
			add(diffRemoved, ma[c.I1:c.I2])
			add(diffAdded, mb[c.J1:c.J2])
		}
	}
	add(diffSame, a[len(a)-tail:])
	return out
}

// changedLines returns, for each line of b, whether the diff from a to b adds it (the lines an update
// changed, as the new text numbers them).
func changedLines(a, b []string) []bool {
	out := make([]bool, len(b))
	i := 0
	for _, l := range diffLines(a, b) {
		switch l.op {
		case diffSame:
			i++
		case diffAdded:
			out[i] = true
			i++
		}
	}
	return out
}

// foldedLine is a line of a folded diff: a line of the diff, or (fold > 0) that many unchanged lines left
// out.
type foldedLine struct {
	diffLine
	fold int
}

// foldDiff keeps the changed lines and context unchanged lines around each, replacing every longer run of
// unchanged lines by one fold.
func foldDiff(lines []diffLine, context int) []foldedLine {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.op == diffSame {
			continue
		}
		for j := max(i-context, 0); j <= min(i+context, len(lines)-1); j++ {
			keep[j] = true
		}
	}
	var out []foldedLine
	for i := 0; i < len(lines); {
		if keep[i] {
			out = append(out, foldedLine{diffLine: lines[i]})
			i++
			continue
		}
		j := i
		for j < len(lines) && !keep[j] {
			j++
		}
		out = append(out, foldedLine{fold: j - i})
		i = j
	}
	return out
}
