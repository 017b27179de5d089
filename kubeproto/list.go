package kubeproto

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Magic opens every protobuf body of the Kubernetes API; a runtime.Unknown follows it.
const Magic = "k8s\x00"

// The field numbers of the envelope and of a list, from k8s.io/apimachinery's runtime and meta/v1
// generated.proto (every XList has its ListMeta as field 1 and its items as field 2).
const (
	unknownTypeMetaField        = 1 // runtime.Unknown.typeMeta (runtime.TypeMeta)
	unknownRawField             = 2 // runtime.Unknown.raw: the object itself
	unknownContentEncodingField = 3 // runtime.Unknown.contentEncoding
	listMetadataField           = 1 // XList.metadata (ListMeta)
	listItemsField              = 2 // XList.items
)

// ErrNotProtobuf is (errors.Is) the error of a body that does not open with Magic: a server, or a proxy,
// that answered in another encoding than the one asked for.
var ErrNotProtobuf = errors.New("the server did not answer in protobuf")

// notProtobufError is ErrNotProtobuf, saying so when the body is JSON.
type notProtobufError struct{ json bool }

func (e notProtobufError) Error() string {
	if e.json {
		return "the server answered in JSON, not protobuf"
	}
	return ErrNotProtobuf.Error()
}

func (e notProtobufError) Is(target error) bool { return target == ErrNotProtobuf }

// NotProtobuf returns the ErrNotProtobuf error of a body that opens with first instead of Magic.
func NotProtobuf(first []byte) error {
	return notProtobufError{json: len(first) > 0 && first[0] == '{'}
}

// ListHandler takes what ReadList reads of a list, in the order the server writes it.
type ListHandler struct {
	// Meta, if set, is called with the list's metadata (ListMeta) when it is read: before the items.
	Meta func(metav1.ListMeta) error
	// Item is called with the bytes of each item's message in order; they are valid until it returns.
	Item func(b []byte) error
}

// ReadList reads the protobuf body of a list of kind (magic, runtime.Unknown{typeMeta, raw}) from r as a
// stream: the list is never held whole, each item is read into one reused buffer of at most maxItem bytes and
// handed to h. A Status body is returned as the API error it describes (apierrors.FromObject); a body that is
// not protobuf is ErrNotProtobuf; a body that ends early, or that holds another kind, is an error, never a
// shorter list. The first error of h stops the read and is returned.
func ReadList(r io.Reader, kind string, maxItem int, h ListHandler) error {
	s := &stream{r: bufio.NewReaderSize(r, 64<<10), max: maxItem}
	magic, err := s.r.Peek(len(Magic))
	if len(magic) > 0 && magic[0] == '{' || err == nil && string(magic) != Magic {
		return NotProtobuf(magic)
	}
	if err != nil {
		return fmt.Errorf("read body: %w", UnexpectedEOF(err))
	}
	_, _ = s.r.Discard(len(Magic))
	got, read := "", false
	for {
		num, typ, err := s.tag()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if typ != protowire.BytesType || (num != unknownTypeMetaField && num != unknownRawField) {
			if err := s.skip(num, typ, -1); err != nil {
				return err
			}
			continue
		}
		n, err := s.length(-1)
		if err != nil {
			return err
		}
		if num == unknownTypeMetaField {
			b, err := s.read(n)
			if err != nil {
				return err
			}
			got = TypeMetaKind(b)
			continue
		}
		switch got {
		case kind:
			if err := s.list(int64(n), h); err != nil {
				return err
			}
			read = true
		case "Status":
			return s.status(n)
		case "":
			return errors.New("a body whose object comes before its kind")
		default:
			return fmt.Errorf("a %s where a %s was expected", got, kind)
		}
	}
	if !read {
		return errors.New("a body without its list")
	}
	return nil
}

// list reads the list message of n bytes at s.
func (s *stream) list(n int64, h ListHandler) error {
	end := s.n + n
	var meta metav1.ListMeta
	for s.n < end {
		num, typ, err := s.tag()
		if err != nil {
			return UnexpectedEOF(err)
		}
		if typ != protowire.BytesType || (num != listMetadataField && num != listItemsField) {
			if err := s.skip(num, typ, end-s.n); err != nil {
				return err
			}
			continue
		}
		size, err := s.length(end - s.n)
		if err != nil {
			return err
		}
		b, err := s.read(size)
		if err != nil {
			return err
		}
		if num == listMetadataField {
			if err := ReadListMeta(b, &meta); err != nil {
				return fmt.Errorf("list metadata: %w", err)
			}
			if h.Meta != nil {
				if err := h.Meta(meta); err != nil {
					return err
				}
			}
			continue
		}
		if err := h.Item(b); err != nil {
			return err
		}
	}
	if s.n != end {
		return errors.New("the list overran its envelope")
	}
	return nil
}

// status reads the Status of n bytes at s and returns the error it describes.
func (s *stream) status(n int) error {
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

// Unwrap reads a whole protobuf body held in b (magic, runtime.Unknown{typeMeta, raw}), as a watch event's
// object carries it, and returns its kind and its object's bytes (aliasing b). A body with a content encoding
// is refused (the API writes none).
func Unwrap(b []byte) (kind string, raw []byte, err error) {
	if len(b) < len(Magic) || string(b[:len(Magic)]) != Magic {
		return "", nil, NotProtobuf(b)
	}
	err = Each(b[len(Magic):], func(f Field) error {
		if f.Type != protowire.BytesType {
			return nil
		}
		switch f.Num {
		case unknownTypeMetaField:
			kind = TypeMetaKind(f.Bytes)
		case unknownRawField:
			raw = f.Bytes
		case unknownContentEncodingField:
			if len(f.Bytes) > 0 {
				return fmt.Errorf("content encoding %q", f.Bytes)
			}
		}
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return kind, raw, nil
}
