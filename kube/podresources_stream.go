package kube

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// protobufMagic opens every protobuf body of the Kubernetes API; a runtime.Unknown follows it.
	protobufMagic = "k8s\x00"
	// maxPodBytes bounds one pod (or one watch frame, or one list's metadata) as client-go's streaming
	// decoder bounds a frame: the apiserver refuses objects above 1.5 MiB whole.
	maxPodBytes = 16 << 20
)

// The field numbers of the envelopes, from k8s.io/apimachinery's runtime and meta/v1 generated.proto.
const (
	unknownTypeMetaField        = 1 // runtime.Unknown.typeMeta (runtime.TypeMeta)
	unknownRawField             = 2 // runtime.Unknown.raw: the object itself
	unknownContentEncodingField = 3 // runtime.Unknown.contentEncoding
	typeMetaKindField           = 2 // runtime.TypeMeta.kind
	listMetadataField           = 1 // PodList.metadata (ListMeta)
	listItemsField              = 2 // PodList.items
	listMetaResourceVersion     = 2 // ListMeta.resourceVersion
	listMetaContinue            = 3 // ListMeta.continue
	listMetaRemainingItemCount  = 4 // ListMeta.remainingItemCount
)

// notProtobuf describes a body that does not open with protobufMagic.
func notProtobuf(first []byte) error {
	if len(first) > 0 && first[0] == '{' {
		return errors.New("the server answered in JSON, not protobuf")
	}
	return errors.New("the server did not answer in protobuf")
}

// protoStream reads the fields of a protobuf message from a stream, counting the bytes it consumed so that
// a caller can stay within a nested message without holding it. Length-delimited values are read into one
// reused buffer (valid until the next read) and bounded by maxPodBytes. Used by one goroutine.
type protoStream struct {
	r   *bufio.Reader
	n   int64 // bytes consumed
	buf []byte
}

// tag reads the next field's tag; io.EOF (only) when the stream ends before it.
func (s *protoStream) tag() (protowire.Number, protowire.Type, error) {
	v, err := s.uvarint()
	if err != nil {
		if err == io.EOF {
			return 0, 0, io.EOF
		}
		return 0, 0, fmt.Errorf("read tag: %w", err)
	}
	num, typ := protowire.DecodeTag(v)
	if num < protowire.MinValidNumber {
		return 0, 0, fmt.Errorf("read tag: field number %d", num)
	}
	return num, typ, nil
}

// uvarint reads a varint; io.EOF when the stream ends before it, io.ErrUnexpectedEOF inside it.
func (s *protoStream) uvarint() (uint64, error) {
	var v uint64
	for i := 0; i < binary.MaxVarintLen64; i++ {
		c, err := s.r.ReadByte()
		if err != nil {
			if err == io.EOF && i > 0 {
				return 0, io.ErrUnexpectedEOF
			}
			return 0, err
		}
		s.n++
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("varint overflows 64 bits")
}

// length reads the length of a length-delimited field, which must end within limit bytes (<0: no limit).
func (s *protoStream) length(limit int64) (int, error) {
	n, err := s.uvarint()
	if err != nil {
		return 0, fmt.Errorf("read length: %w", unexpectedEOF(err))
	}
	if n > 1<<40 || (limit >= 0 && int64(n) > limit) {
		return 0, fmt.Errorf("a field of %d bytes", n)
	}
	return int(n), nil
}

// read reads n bytes into the buffer; n is at most maxPodBytes.
func (s *protoStream) read(n int) ([]byte, error) {
	if n > maxPodBytes {
		return nil, fmt.Errorf("a field of %d bytes", n)
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	s.buf = s.buf[:n]
	if _, err := io.ReadFull(s.r, s.buf); err != nil {
		return nil, unexpectedEOF(err)
	}
	s.n += int64(n)
	return s.buf, nil
}

// skip skips the value of a field of wire type typ (groups are refused: the API does not use them).
func (s *protoStream) skip(typ protowire.Type, limit int64) error {
	var n int
	switch typ {
	case protowire.VarintType:
		_, err := s.uvarint()
		return unexpectedEOF(err)
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	case protowire.BytesType:
		var err error
		if n, err = s.length(limit); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unexpected wire type %d", typ)
	}
	if limit >= 0 && int64(n) > limit {
		return io.ErrUnexpectedEOF
	}
	d, err := s.r.Discard(n)
	s.n += int64(d)
	return unexpectedEOF(err)
}

// unexpectedEOF turns io.EOF (a stream that ended inside a value) into io.ErrUnexpectedEOF.
func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// decodePodList reads a protobuf PodList body (magic, runtime.Unknown{typeMeta, raw}) as a stream: the list
// is never held whole, each pod's bytes are read into one reused buffer and decoded by d. A Status body is
// returned as the error it describes (apierrors.FromObject); a body that ends early, or that is not a
// PodList, is an error, never a shorter list.
func decodePodList(r io.Reader, d podDecoder) (*podResourceList, error) {
	s := &protoStream{r: bufio.NewReaderSize(r, 64<<10)}
	magic, err := s.r.Peek(len(protobufMagic))
	if len(magic) > 0 && magic[0] == '{' || err == nil && string(magic) != protobufMagic {
		return nil, notProtobuf(magic)
	}
	if err != nil {
		return nil, fmt.Errorf("read body: %w", unexpectedEOF(err))
	}
	_, _ = s.r.Discard(len(protobufMagic))
	var kind string
	var list *podResourceList
	for {
		num, typ, err := s.tag()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if typ != protowire.BytesType || (num != unknownTypeMetaField && num != unknownRawField) {
			if err := s.skip(typ, -1); err != nil {
				return nil, err
			}
			continue
		}
		n, err := s.length(-1)
		if err != nil {
			return nil, err
		}
		if num == unknownTypeMetaField {
			b, err := s.read(n)
			if err != nil {
				return nil, err
			}
			kind = typeMetaKind(b)
			continue
		}
		switch kind {
		case "PodList":
			if list, err = s.podList(int64(n), d); err != nil {
				return nil, err
			}
		case "Status":
			return nil, s.status(n)
		case "":
			return nil, errors.New("a body whose object comes before its kind")
		default:
			return nil, fmt.Errorf("a %s where a PodList was expected", kind)
		}
	}
	if list == nil {
		return nil, errors.New("a body without its list")
	}
	return list, nil
}

// status reads the Status of n bytes at s and returns the error it describes.
func (s *protoStream) status(n int) error {
	b, err := s.read(n)
	if err != nil {
		return err
	}
	var st metav1.Status
	if err := st.Unmarshal(b); err != nil {
		return fmt.Errorf("decode status: %w", err)
	}
	return apierrors.FromObject(&st)
}

// podList reads the PodList message of n bytes at s.
func (s *protoStream) podList(n int64, d podDecoder) (*podResourceList, error) {
	end := s.n + n
	list := &podResourceList{Items: []*podResource{}}
	for s.n < end {
		num, typ, err := s.tag()
		if err != nil {
			return nil, unexpectedEOF(err)
		}
		if typ != protowire.BytesType || (num != listMetadataField && num != listItemsField) {
			if err := s.skip(typ, end-s.n); err != nil {
				return nil, err
			}
			continue
		}
		size, err := s.length(end - s.n)
		if err != nil {
			return nil, err
		}
		b, err := s.read(size)
		if err != nil {
			return nil, err
		}
		if num == listMetadataField {
			if err := readListMeta(b, &list.ListMeta); err != nil {
				return nil, fmt.Errorf("list metadata: %w", err)
			}
			continue
		}
		pod, err := d.pod(b)
		if err != nil {
			return nil, fmt.Errorf("pod %d: %w", len(list.Items), err)
		}
		list.Items = append(list.Items, pod)
	}
	if s.n != end {
		return nil, errors.New("the list overran its envelope")
	}
	return list, nil
}

// readListMeta reads a ListMeta's resourceVersion, continue token and remainingItemCount (last values win).
func readListMeta(b []byte, m *metav1.ListMeta) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("tag: %w", protowire.ParseError(n))
		}
		b = b[n:]
		switch {
		case typ == protowire.BytesType && (num == listMetaResourceVersion || num == listMetaContinue):
			var v []byte
			if v, n = protowire.ConsumeBytes(b); n >= 0 && num == listMetaResourceVersion {
				m.ResourceVersion = string(v)
			} else if n >= 0 {
				m.Continue = string(v)
			}
		case typ == protowire.VarintType && num == listMetaRemainingItemCount:
			var c uint64
			if c, n = protowire.ConsumeVarint(b); n >= 0 {
				count := int64(c)
				m.RemainingItemCount = &count
			}
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
	}
	return nil
}

// typeMetaKind returns the kind of a runtime.TypeMeta, "" when it has none or does not parse.
func typeMetaKind(b []byte) string {
	kind := ""
	for len(b) > 0 {
		num, typ, v, rest, err := nextProtoField(b)
		if err != nil {
			return ""
		}
		if num == typeMetaKindField && typ == protowire.BytesType {
			kind = string(v)
		}
		b = rest
	}
	return kind
}
