package watch

import (
	"cmp"
	"strings"
)

// naturalCompare is the reference natural order that naturalKey is tested against: strings compared with
// runs of digits compared by value, so "pod-2" < "pod-10". Strings that differ only in leading zeros fall
// back to byte order.
func naturalCompare(a, b string) int {
	// Skip the common prefix, backing up to the start of a digit run it ends in.
	p, n := 0, min(len(a), len(b))
	for p < n && a[p] == b[p] {
		p++
	}
	if p == len(a) && p == len(b) {
		return 0
	}
	for p > 0 && isDigit(a[p-1]) {
		p--
	}
	i, j := p, p
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			da := strings.TrimLeft(a[si:i], "0")
			db := strings.TrimLeft(b[sj:j], "0")
			if c := cmp.Compare(len(da), len(db)); c != 0 {
				return c
			}
			if c := strings.Compare(da, db); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return cmp.Compare(ca, cb)
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
