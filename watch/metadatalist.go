package watch

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// metadataListAccept asks for a list of the objects' metadata (meta.k8s.io/v1 PartialObjectMetadataList) in
// protobuf. For the same rows, the server encodes it several times faster than a Table's rows with their
// metadata in JSON (at 50k pods, measured on the devcluster: 0.6 s against 2.6 s), mostly because it encodes
// managedFields as bytes instead of JSON.
const metadataListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"

// protobufMagic opens every protobuf body of the Kubernetes API (a runtime.Unknown follows it).
var protobufMagic = []byte("k8s\x00")

// errNotProtobuf is returned for a metadata list whose body is not protobuf (a server that cannot encode it).
var errNotProtobuf = errors.New("the server did not answer in protobuf")

// maxMetadataItem bounds one object's encoded metadata (the apiserver refuses objects above 1.5 MiB whole).
const maxMetadataItem = 4 << 20

// metadataListDecoder reads a PartialObjectMetadataList from a protobuf body as a stream: the list is never
// held whole, each item's bytes are read into one reused buffer and only the fields wireMeta holds are kept
// (managedFields, annotations, owner references and the rest are skipped without being allocated). A
// metadataListDecoder is used by one goroutine.
type metadataListDecoder struct {
	r     *bufio.Reader
	buf   []byte
	texts textSet // namespaces, shared across the list
}

// decodeMetadataList reads the list in r, calling onList (if set) with the list's metadata as soon as it is
// read (the server writes it before the items), and returns the items' metadata in order with the list's.
func decodeMetadataList(r io.Reader, onList func(wireMeta)) ([]wireMeta, wireMeta, error) {
	d := &metadataListDecoder{r: bufio.NewReaderSize(r, 64<<10), texts: make(textSet, 64)}
	return d.decode(onList)
}

func (d *metadataListDecoder) decode(onList func(wireMeta)) ([]wireMeta, wireMeta, error) {
	var list wireMeta
	magic := make([]byte, len(protobufMagic))
	if _, err := io.ReadFull(d.r, magic); err != nil || !bytes.Equal(magic, protobufMagic) {
		return nil, list, errNotProtobuf
	}
	var items []wireMeta
	kind, raw := "", false
	err := d.fields(d.r, func(num protowire.Number, n int, r *bufio.Reader) error {
		switch num {
		case 1: // runtime.Unknown.typeMeta
			b, err := d.read(r, n)
			if err != nil {
				return err
			}
			kind = typeMetaKind(b)
			if kind != "PartialObjectMetadataList" {
				return fmt.Errorf("unexpected %q in a metadata list response", kind)
			}
			return nil
		case 2: // runtime.Unknown.raw: the list itself
			raw = true
			lim := &io.LimitedReader{R: r, N: int64(n)}
			var err error
			if items, list, err = d.list(bufio.NewReader(lim), onList); err == nil && lim.N > 0 {
				err = io.ErrUnexpectedEOF // the body broke off between two objects
			}
			return err
		}
		return d.skip(r, n)
	})
	if err == nil && (kind == "" || !raw) {
		err = errors.New("a metadata list response without its kind or its list")
	}
	return items, list, err
}

// list reads a PartialObjectMetadataList's fields from r.
func (d *metadataListDecoder) list(r *bufio.Reader, onList func(wireMeta)) ([]wireMeta, wireMeta, error) {
	var list wireMeta
	items := []wireMeta{}
	err := d.fields(r, func(num protowire.Number, n int, r *bufio.Reader) error {
		b, err := d.read(r, n)
		if err != nil {
			return err
		}
		switch num {
		case 1:
			if err := readListMeta(b, &list); err != nil {
				return err
			}
			if onList != nil {
				onList(list)
			}
		case 2:
			var m wireMeta
			if err := d.item(b, &m); err != nil {
				return fmt.Errorf("item %d: %w", len(items), err)
			}
			items = append(items, m)
		}
		return nil
	})
	return items, list, err
}

// fields calls each for every length-delimited field of the message in r, which must read exactly n bytes
// (the field's length) from r; fields of other wire types are skipped.
func (d *metadataListDecoder) fields(r *bufio.Reader, each func(num protowire.Number, n int, r *bufio.Reader) error) error {
	for {
		tag, err := binary.ReadUvarint(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read tag: %w", err)
		}
		num, typ := protowire.DecodeTag(tag)
		if typ != protowire.BytesType {
			if err := d.skipValue(r, num, typ); err != nil {
				return err
			}
			continue
		}
		n, err := d.readLength(r, num)
		if err != nil {
			return err
		}
		if err := each(num, n, r); err != nil {
			return err
		}
	}
}

// readLength reads the length of a length-delimited field num.
func (d *metadataListDecoder) readLength(r *bufio.Reader, num protowire.Number) (int, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return 0, fmt.Errorf("field %d: read length: %w", num, unexpectedEOF(err))
	}
	if n > 1<<31 {
		return 0, fmt.Errorf("field %d: length %d", num, n)
	}
	return int(n), nil
}

// skipValue skips the value of field num, of wire type typ, in r (a group up to its end).
func (d *metadataListDecoder) skipValue(r *bufio.Reader, num protowire.Number, typ protowire.Type) error {
	switch typ {
	case protowire.BytesType:
		n, err := d.readLength(r, num)
		if err != nil {
			return err
		}
		return d.skip(r, n)
	case protowire.VarintType:
		if _, err := binary.ReadUvarint(r); err != nil {
			return fmt.Errorf("field %d: read varint: %w", num, unexpectedEOF(err))
		}
		return nil
	case protowire.Fixed32Type:
		return d.skip(r, 4)
	case protowire.Fixed64Type:
		return d.skip(r, 8)
	case protowire.StartGroupType:
		for {
			tag, err := binary.ReadUvarint(r)
			if err != nil {
				return fmt.Errorf("group %d: read tag: %w", num, unexpectedEOF(err))
			}
			n, t := protowire.DecodeTag(tag)
			if t == protowire.EndGroupType {
				if n != num {
					return fmt.Errorf("group %d ended as %d", num, n)
				}
				return nil
			}
			if err := d.skipValue(r, n, t); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("field %d: unexpected wire type %d", num, typ)
}

// read reads the n bytes of a field into the decoder's buffer; they are valid until the next read.
func (d *metadataListDecoder) read(r *bufio.Reader, n int) ([]byte, error) {
	if n > maxMetadataItem {
		return nil, fmt.Errorf("a field of %d bytes", n)
	}
	if cap(d.buf) < n {
		d.buf = make([]byte, n)
	}
	d.buf = d.buf[:n]
	if _, err := io.ReadFull(r, d.buf); err != nil {
		return nil, unexpectedEOF(err)
	}
	return d.buf, nil
}

// skip discards n bytes of r.
func (d *metadataListDecoder) skip(r *bufio.Reader, n int) error {
	if _, err := r.Discard(n); err != nil {
		return unexpectedEOF(err)
	}
	return nil
}

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// item reads one PartialObjectMetadata: its field 1 is the ObjectMeta.
func (d *metadataListDecoder) item(b []byte, m *wireMeta) error {
	return eachField(b, func(f protoField) error {
		if f.num == 1 && f.typ == protowire.BytesType {
			return d.objectMeta(f.bytes, m)
		}
		return nil
	})
}

// objectMeta reads the ObjectMeta fields wireMeta holds, as the JSON row decoder does (readMeta): name,
// namespace (shared across the list), uid, resourceVersion, creationTimestamp (whole seconds, in local time,
// as metav1.Time decodes it) and labels.
func (d *metadataListDecoder) objectMeta(b []byte, m *wireMeta) error {
	return eachField(b, func(f protoField) error {
		if f.typ != protowire.BytesType {
			return nil
		}
		switch f.num {
		case 1:
			m.Name = string(f.bytes)
		case 3:
			m.Namespace = d.texts.shareBytes(f.bytes)
		case 5:
			m.UID = types.UID(f.bytes)
		case 6:
			m.ResourceVersion = string(f.bytes)
		case 8:
			t, err := readProtoTime(f.bytes)
			if err != nil {
				return fmt.Errorf("creationTimestamp: %w", err)
			}
			m.CreationTimestamp = t
		case 11:
			k, v, err := readMapEntry(f.bytes)
			if err != nil {
				return fmt.Errorf("labels: %w", err)
			}
			if m.Labels == nil {
				m.Labels = map[string]string{}
			}
			m.Labels[k] = v
		}
		return nil
	})
}

// protoField is one field of a protobuf message: bytes holds a length-delimited field's value (aliasing the
// message), varint a varint field's.
type protoField struct {
	num    protowire.Number
	typ    protowire.Type
	bytes  []byte
	varint uint64
}

// eachField calls each with every field of the message b, in order.
func eachField(b []byte, each func(protoField) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		f := protoField{num: num, typ: typ}
		switch typ {
		case protowire.BytesType:
			f.bytes, n = protowire.ConsumeBytes(b)
		case protowire.VarintType:
			f.varint, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := each(f); err != nil {
			return err
		}
	}
	return nil
}

// readListMeta reads a ListMeta's resourceVersion, continue and remainingItemCount.
func readListMeta(b []byte, m *wireMeta) error {
	return eachField(b, func(f protoField) error {
		switch {
		case f.num == 2 && f.typ == protowire.BytesType:
			m.ResourceVersion = string(f.bytes)
		case f.num == 3 && f.typ == protowire.BytesType:
			m.Continue = string(f.bytes)
		case f.num == 4 && f.typ == protowire.VarintType:
			n := int64(f.varint)
			m.RemainingItemCount = &n
		}
		return nil
	})
}

// readProtoTime reads a metav1.Time as its Unmarshal does: whole seconds (nanos are dropped), in local time;
// empty is the zero time.
func readProtoTime(b []byte) (metav1.Time, error) {
	if len(b) == 0 {
		return metav1.Time{}, nil
	}
	var secs int64
	err := eachField(b, func(f protoField) error {
		if f.num == 1 && f.typ == protowire.VarintType {
			secs = int64(f.varint)
		}
		return nil
	})
	if err != nil {
		return metav1.Time{}, err
	}
	return metav1.NewTime(time.Unix(secs, 0).Local()), nil
}

// readMapEntry reads one entry of a map<string, string>: key 1, value 2.
func readMapEntry(b []byte) (key, value string, err error) {
	err = eachField(b, func(f protoField) error {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			key = string(f.bytes)
		case f.num == 2 && f.typ == protowire.BytesType:
			value = string(f.bytes)
		}
		return nil
	})
	return key, value, err
}

// typeMetaKind returns the kind of a runtime.TypeMeta (field 2), or "" when it has none or does not parse.
func typeMetaKind(b []byte) string {
	kind := ""
	_ = eachField(b, func(f protoField) error {
		if f.num == 2 && f.typ == protowire.BytesType {
			kind = string(f.bytes)
		}
		return nil
	})
	return kind
}
