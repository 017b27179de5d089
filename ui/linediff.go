package ui

import "strings"

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

// diffLines returns the shortest edit script from a to b (Myers' O(ND) algorithm), removals before the
// additions that replace them.
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
	for _, l := range a[:head] {
		out = append(out, diffLine{diffSame, l})
	}
	out = append(out, myers(a[head:len(a)-tail], b[head:len(b)-tail])...)
	for _, l := range a[len(a)-tail:] {
		out = append(out, diffLine{diffSame, l})
	}
	return out
}

// myers is the shortest edit script from a to b.
func myers(a, b []string) []diffLine {
	n, m := len(a), len(b)
	maxD := n + m
	if maxD == 0 {
		return nil
	}
	off := maxD
	v := make([]int, 2*maxD+2)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1] // down: an addition
			} else {
				x = v[off+k-1] + 1 // right: a removal
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, off, d)
			}
		}
	}
	return nil // not reached: d = n+m always ends
}

// backtrack walks the saved frontiers back from (len(a), len(b)) at distance d to build the script.
func backtrack(trace [][]int, a, b []string, off, d int) []diffLine {
	x, y := len(a), len(b)
	var rev []diffLine
	for ; d > 0; d-- {
		v := trace[d]
		k := x - y
		var prevK int
		if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := v[off+prevK]
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, diffLine{diffSame, a[x]})
		}
		if x == prevX {
			y--
			rev = append(rev, diffLine{diffAdded, b[y]})
		} else {
			x--
			rev = append(rev, diffLine{diffRemoved, a[x]})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, diffLine{diffSame, a[x]})
	}
	out := make([]diffLine, len(rev))
	for i, l := range rev {
		out[len(rev)-1-i] = l
	}
	return orderChanges(out)
}

// orderChanges puts, in each run of changed lines, the removals before the additions.
func orderChanges(lines []diffLine) []diffLine {
	for i := 0; i < len(lines); {
		if lines[i].op == diffSame {
			i++
			continue
		}
		j := i
		for j < len(lines) && lines[j].op != diffSame {
			j++
		}
		run := make([]diffLine, 0, j-i)
		for _, op := range []diffOp{diffRemoved, diffAdded} {
			for _, l := range lines[i:j] {
				if l.op == op {
					run = append(run, l)
				}
			}
		}
		copy(lines[i:j], run)
		i = j
	}
	return lines
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
