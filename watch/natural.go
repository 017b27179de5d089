package watch

import (
	"cmp"
	"strings"
)

// Natural order: strings compared with runs of digits compared by value ("pod-2" < "pod-10"), as k9s and
// kubectl users expect names, IPs and versions to sort. naturalKey encodes a string once for sorts, which
// compare many keys; compareNatural compares two strings in that order without encoding them, for searches,
// which must not allocate at every step.

// naturalKey encodes s so that comparing encodings byte by byte orders strings naturally, runs of digits by
// their value ("pod-2" < "pod-10"; equal up to leading zeros, as the tests' reference naturalCompare checks):
// each run of digits becomes '0', its length without leading zeros (as one byte), and those digits. A '0' byte only ever starts such a run, and it orders against other bytes as any digit would.
func naturalKey(s string) string {
	i := 0
	for i < len(s) && !isDigit(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	return string(appendNaturalKey(make([]byte, 0, len(s)+8), s))
}

// appendNaturalKey appends naturalKey(s) to b.
func appendNaturalKey(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			b = append(b, s[i])
			i++
			continue
		}
		run, j := digitRun(s, i)
		b = append(b, '0', byte(min(len(run), 255)))
		b = append(b, run...)
		i = j
	}
	return b
}

// compareNatural orders a and b as strings.Compare(naturalKey(a), naturalKey(b)) does, without building the
// keys: byte by byte, a run of digits against a run of digits by its length without leading zeros, then its
// digits, and against any other byte as the '0' that starts its encoding.
func compareNatural(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		da, db := isDigit(a[i]), isDigit(b[j])
		switch {
		case da && db:
			ra, ni := digitRun(a, i)
			rb, nj := digitRun(b, j)
			if len(ra) > 255 || len(rb) > 255 { // (the encoding caps a run's length byte: rare enough to encode)
				return strings.Compare(naturalKey(a[i:]), naturalKey(b[j:]))
			}
			if c := cmp.Compare(len(ra), len(rb)); c != 0 {
				return c
			}
			if c := strings.Compare(ra, rb); c != 0 {
				return c
			}
			i, j = ni, nj
		case da:
			return cmp.Compare('0', b[j])
		case db:
			return cmp.Compare(a[i], '0')
		default:
			if c := cmp.Compare(a[i], b[j]); c != 0 {
				return c
			}
			i, j = i+1, j+1
		}
	}
	return cmp.Compare(len(a)-i, len(b)-j) // (what is left of one encodes to a longer key)
}

// digitRun returns the run of digits of s starting at i without its leading zeros ("0" for zeros only), and
// the index after it.
func digitRun(s string, i int) (string, int) {
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	run := strings.TrimLeft(s[i:j], "0")
	if run == "" {
		run = "0"
	}
	return run, j
}
