package watch

import (
	"fmt"
	"io"
	"strings"

	jsoniter "github.com/json-iterator/go"
)

// decodeList decodes a list response into rows, converting each row as it is read, so that neither the body
// nor the decoded wire rows are ever held whole. It returns the list's metadata; a Status yields its error.
func decodeList(r io.Reader, conv *converter) (*wireTable, []*rowObject, error) {
	return decodeRows(r, conv, decodeOptions{})
}

// decodeOptions are what decodeRows does besides decoding.
type decodeOptions struct {
	// onMeta, if set, is called with the list's metadata as soon as it is read, before the rows that follow it.
	onMeta func(wireMeta)
	// check, if set, is called with the list's metadata as soon as it is read; an error ends the decoding
	// with it. Rows before the metadata are then an error.
	check func(wireMeta) error
	// onRow, if set, receives each row instead of the returned rows.
	onRow func(*rowObject)
	// metas, if not nil, hands over the metadata of the rows of a list asked for without objects
	// (includeObject=None), in the same order (the objects of a metadata list of the same page): the rows are
	// joined to them one to one, and a row whose name cell differs from its metadata's name is an error.
	metas metaSource
}

// decodeRows is decodeList, with opts.
func decodeRows(r io.Reader, conv *converter, opts decodeOptions) (*wireTable, []*rowObject, error) {
	onMeta, onRow := opts.onMeta, opts.onRow
	iter := jsoniter.Parse(jsonAPI, r, 64<<10)
	t := &wireTable{}
	rows := []*rowObject{}
	checked := false
	add := func(o *rowObject) {
		if onRow != nil {
			onRow(o)
		} else {
			rows = append(rows, o)
		}
	}
	if iter.WhatIsNext() != jsoniter.ObjectValue {
		return nil, nil, fmt.Errorf("list response is not a JSON object")
	}
	for key := iter.ReadObject(); key != "" && iter.Error == nil; key = iter.ReadObject() {
		switch key {
		case "rows":
			if opts.check != nil && !checked {
				return nil, nil, fmt.Errorf("decode: rows before the list metadata")
			}
			d := newRowDecoder(conv)
			d.metas = opts.metas
			for iter.ReadArray() {
				o := d.readRow(iter)
				if iter.Error != nil {
					break
				}
				add(o)
			}
			if iter.Error == nil && d.metas != nil {
				if _, more := d.metas.next(); more {
					iter.ReportError("join rows", fmt.Sprintf("%d rows for more objects", d.next))
				}
			}
		case "items":
			conv.setColumns(plainColumnDefs, true)
			t.Items = []wireObject{}
			var wo wireObject
			for iter.ReadArray() {
				wo = wireObject{}
				if iter.ReadVal(&wo); iter.Error != nil {
					break
				}
				add(conv.plainRow(&wo.Metadata))
			}
		case "columnDefinitions":
			if iter.ReadVal(&t.ColumnDefinitions); iter.Error == nil && len(t.ColumnDefinitions) > 0 {
				conv.setColumns(t.ColumnDefinitions, false)
			}
		default:
			readField(iter, t, key)
			if key != "metadata" || iter.Error != nil {
				break
			}
			if opts.check != nil {
				if err := opts.check(t.Metadata); err != nil {
					return nil, nil, err
				}
				checked = true
			}
			if onMeta != nil {
				onMeta(t.Metadata)
			}
		}
	}
	if iter.Error != nil && iter.Error != io.EOF {
		return nil, nil, fmt.Errorf("decode: %w", iter.Error)
	}
	if opts.check != nil && !checked {
		if err := opts.check(t.Metadata); err != nil {
			return nil, nil, err
		}
	}
	if st, ok := t.status(); ok {
		return nil, nil, statusError(st)
	}
	if !t.isTable() {
		if t.Items == nil && !strings.HasSuffix(t.Kind, "List") {
			return nil, nil, fmt.Errorf("unexpected %s %s in a list response", t.APIVersion, t.Kind)
		}
		conv.setColumns(plainColumnDefs, true)
	}
	return t, rows, nil
}

// readField reads the value of one top-level key into the matching field of t (others are skipped).
func readField(iter *jsoniter.Iterator, t *wireTable, key string) {
	switch key {
	case "kind":
		iter.ReadVal(&t.Kind)
	case "apiVersion":
		iter.ReadVal(&t.APIVersion)
	case "metadata":
		iter.ReadVal(&t.Metadata)
	case "status":
		iter.ReadVal(&t.Status)
	case "message":
		iter.ReadVal(&t.Message)
	case "reason":
		iter.ReadVal(&t.Reason)
	case "details":
		iter.ReadVal(&t.Details)
	case "code":
		iter.ReadVal(&t.Code)
	default:
		iter.Skip()
	}
}
