package watch

import (
	"cmp"
	"strings"
	"testing"
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

// naturalWords are strings whose natural order has corner cases: digit runs against other bytes, leading
// zeros, runs at either end, runs longer than an encoded length byte holds.
var naturalWords = []string{"pod-2", "pod-10", "pod-1", "pod", "pod-", "pod-0", "pod-00", "a", "a5", "a-b",
	"10.0.0.9", "10.0.0.10", "10.0.1.2", "v1.9", "v1.10", "", "B", "b", "x01", "x1", "x", "1", "9", "10", "~",
	"0/1", "1/1", "z9z", "z10a", "/", ".", "0", "00", "007a", "7a", "a07", "a7b", "a7", "ä1", "a\xff",
	strings.Repeat("9", 255), strings.Repeat("9", 256), "1" + strings.Repeat("0", 300), "x" + strings.Repeat("5", 300) + "y",
	"x" + strings.Repeat("5", 300) + "z", "x" + strings.Repeat("5", 301)}

// TestCompareNaturalAgreesWithKeys: compareNatural orders every pair of strings exactly as their keys do.
func TestCompareNaturalAgreesWithKeys(t *testing.T) {
	for _, a := range naturalWords {
		for _, b := range naturalWords {
			want := sign(strings.Compare(naturalKey(a), naturalKey(b)))
			if got := sign(compareNatural(a, b)); got != want {
				t.Errorf("compareNatural(%q, %q) = %d, keys compare %d", a, b, got, want)
			}
		}
	}
}

// FuzzCompareNatural: compareNatural against the keys' order, on any two strings.
func FuzzCompareNatural(f *testing.F) {
	for i, a := range naturalWords {
		f.Add(a, naturalWords[(i+7)%len(naturalWords)])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		want := sign(strings.Compare(naturalKey(a), naturalKey(b)))
		if got := sign(compareNatural(a, b)); got != want {
			t.Fatalf("compareNatural(%q, %q) = %d, keys compare %d", a, b, got, want)
		}
	})
}

// TestCompareLazyAgreesWithKeyed: for every order a table offers (each column, both directions, and the
// natural order), comparing rows by lazy keys gives the order of their keys, for every pair of rows.
func TestCompareLazyAgreesWithKeyed(t *testing.T) {
	rows := testRows(120)
	for col := -1; col < len(testColumns); col++ {
		for _, desc := range []bool{false, true} {
			o := newRowOrder(Query{SortColumn: col, Descending: desc}, testColumns)
			for _, a := range rows {
				for _, b := range rows {
					want := sign(o.compare(a, b))
					if got := sign(o.compareLazy(a, o.lazyKey(a), b, o.lazyKey(b))); got != want {
						t.Fatalf("col %d desc %v: %s against %s: lazy %d, keyed %d", col, desc, a.Key, b.Key, got, want)
					}
				}
			}
		}
	}
}
