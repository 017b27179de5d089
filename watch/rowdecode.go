package watch

import (
	"fmt"
	"time"

	jsoniter "github.com/json-iterator/go"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// maxListStrings bounds the short texts a rowDecoder keeps for sharing within one response; past it, new
// texts are not shared.
const maxListStrings = 4096

// rowDecoder reads the rows of a list response straight off the iterator, field by field, instead of through
// json-iterator's reflection: a 50k-row list is decoded in about half the CPU time and a fifth of the
// allocations (BenchmarkConvertList). Short cell texts repeat across the rows of a list ("Running", "1/1",
// node names); they are shared through a map of the response's own, not through intern: most short texts
// that are new to a list are unique to their row (IPs), and unique.Make costs far more than a map lookup.
// A rowDecoder is used by one goroutine.
type rowDecoder struct {
	conv  *converter
	texts textSet
	cells []wireCell // reused for each row: tableRow copies them
	// metas, if not nil, hands over the metadata of the rows to read, in order (decodeOptions.metas); next
	// counts the rows joined to theirs.
	metas metaSource
	next  int
}

func newRowDecoder(conv *converter) *rowDecoder {
	return &rowDecoder{conv: conv, texts: make(textSet, 64)}
}

// share returns the canonical copy of a short s.
func (d *rowDecoder) share(s string) string {
	if len(s) == 0 || len(s) > internMaxLen {
		return s
	}
	return d.texts.share(s)
}

// textSet holds the first copy of each text met in one response (up to maxListStrings texts), for later
// occurrences to share. It is used by one goroutine.
type textSet map[string]string

// share returns the copy of s held, holding s if there is none yet.
func (t textSet) share(s string) string {
	if c, ok := t[s]; ok {
		return c
	}
	if len(t) < maxListStrings {
		t[s] = s
	}
	return s
}

// shareBytes is share for the text of v, allocating a string only for a text not held yet.
func (t textSet) shareBytes(v []byte) string {
	if c, ok := t[string(v)]; ok {
		return c
	}
	return t.share(string(v))
}

// readRow reads one element of a Table's rows: its cells (formatted as kubectl prints them) and the
// metadata of its object (zero when the list was asked for includeObject=None). Decoding errors are left on
// the iterator.
func (d *rowDecoder) readRow(iter *jsoniter.Iterator) *rowObject {
	var m wireMeta
	d.cells = d.cells[:0]
	for key := iter.ReadObject(); key != "" && iter.Error == nil; key = iter.ReadObject() {
		switch key {
		case "cells":
			for iter.ReadArray() {
				d.cells = append(d.cells, readCell(iter))
			}
		case "object":
			for key := iter.ReadObject(); key != "" && iter.Error == nil; key = iter.ReadObject() {
				if key == "metadata" {
					d.readMeta(iter, &m)
				} else {
					iter.Skip()
				}
			}
		default:
			iter.Skip()
		}
	}
	if iter.Error != nil {
		return nil
	}
	if d.metas != nil {
		if !d.join(iter, &m) {
			return nil
		}
	}
	return d.conv.tableRowShared(&m, d.cells, d.share)
}

// join sets m to the metadata of the row just read (its cells in d.cells) from d.metas; it reports an error on
// iter when there is none left or when its name is not the row's name cell.
func (d *rowDecoder) join(iter *jsoniter.Iterator, m *wireMeta) bool {
	o, ok := d.metas.next()
	if !ok {
		iter.ReportError("join rows", fmt.Sprintf("more rows than the %d objects", d.next))
		return false
	}
	*m = o
	d.next++
	if name, ok := d.conv.nameCell(d.cells); !ok || name != m.Name {
		iter.ReportError("join rows", fmt.Sprintf("row %d is %q, its object %q", d.next-1, name, m.Name))
		return false
	}
	return true
}

// readCell reads one cell value and formats it as formatCell does.
func readCell(iter *jsoniter.Iterator) wireCell {
	if iter.WhatIsNext() == jsoniter.StringValue {
		return wireCell(escapeCell(iter.ReadString()))
	}
	s, err := formatCell(iter.SkipAndReturnBytes())
	if err != nil && iter.Error == nil {
		iter.ReportError("read cell", err.Error())
	}
	return wireCell(s)
}

// readMeta reads an object's metadata into m: the fields wireMeta holds; annotations only when they carry
// initial-events-end, as keptAnnotations does.
func (d *rowDecoder) readMeta(iter *jsoniter.Iterator, m *wireMeta) {
	for key := iter.ReadObject(); key != "" && iter.Error == nil; key = iter.ReadObject() {
		switch key {
		case "name":
			m.Name = iter.ReadString()
		case "namespace":
			m.Namespace = d.share(iter.ReadString())
		case "uid":
			m.UID = types.UID(iter.ReadString())
		case "resourceVersion":
			m.ResourceVersion = iter.ReadString()
		case "creationTimestamp":
			m.CreationTimestamp = readTime(iter)
		case "labels":
			m.Labels = readStringMap(iter, nil)
		case "annotations":
			m.Annotations = readStringMap(iter, func(k string) bool { return k == initialEventsEnd })
		default:
			iter.Skip()
		}
	}
}

// readTime reads a metav1.Time as its UnmarshalJSON does (RFC 3339, in local time; null is zero).
func readTime(iter *jsoniter.Iterator) metav1.Time {
	if iter.ReadNil() {
		return metav1.Time{}
	}
	s := iter.ReadString()
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		iter.ReportError("read time", fmt.Sprintf("creationTimestamp %q: %v", s, err))
		return metav1.Time{}
	}
	return metav1.NewTime(t.Local())
}

// readStringMap reads an object of strings; keep (nil for all) chooses the keys kept. It returns nil for
// null or when no key is kept.
func readStringMap(iter *jsoniter.Iterator, keep func(string) bool) map[string]string {
	if iter.ReadNil() {
		return nil
	}
	var out map[string]string
	for key := iter.ReadObject(); key != "" && iter.Error == nil; key = iter.ReadObject() {
		if keep != nil && !keep(key) {
			iter.Skip()
			continue
		}
		v := iter.ReadString()
		if out == nil {
			out = map[string]string{}
		}
		out[key] = v
	}
	return out
}
