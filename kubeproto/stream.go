package kubeproto

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
)

// stream reads the fields of a protobuf message from a reader, counting the bytes it consumed so that a
// caller can stay within a nested message without holding it. Length-delimited values are read into one
// reused buffer (valid until the next read) and bounded by max. Used by one goroutine.
type stream struct {
	r   *bufio.Reader
	n   int64 // bytes consumed
	max int
	buf []byte
}

// tag reads the next field's tag; io.EOF (only) when the stream ends before it.
func (s *stream) tag() (protowire.Number, protowire.Type, error) {
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
func (s *stream) uvarint() (uint64, error) {
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
func (s *stream) length(limit int64) (int, error) {
	n, err := s.uvarint()
	if err != nil {
		return 0, fmt.Errorf("read length: %w", UnexpectedEOF(err))
	}
	if n > 1<<40 || (limit >= 0 && int64(n) > limit) {
		return 0, fmt.Errorf("a field of %d bytes", n)
	}
	return int(n), nil
}

// read reads n bytes into the buffer; n is at most s.max.
func (s *stream) read(n int) ([]byte, error) {
	if n > s.max {
		return nil, fmt.Errorf("a field of %d bytes", n)
	}
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	s.buf = s.buf[:n]
	if _, err := io.ReadFull(s.r, s.buf); err != nil {
		return nil, UnexpectedEOF(err)
	}
	s.n += int64(n)
	return s.buf, nil
}

// skip skips the value of field num, of wire type typ, which must end within limit bytes (<0: no limit); a
// group is skipped up to its end, as the generated code skips it.
func (s *stream) skip(num protowire.Number, typ protowire.Type, limit int64) error {
	var n int
	switch typ {
	case protowire.VarintType:
		_, err := s.uvarint()
		return UnexpectedEOF(err)
	case protowire.Fixed32Type:
		n = 4
	case protowire.Fixed64Type:
		n = 8
	case protowire.BytesType:
		var err error
		if n, err = s.length(limit); err != nil {
			return err
		}
	case protowire.StartGroupType:
		return s.skipGroup(num, limit)
	default:
		return fmt.Errorf("field %d: unexpected wire type %d", num, typ)
	}
	if limit >= 0 && int64(n) > limit {
		return io.ErrUnexpectedEOF
	}
	d, err := s.r.Discard(n)
	s.n += int64(d)
	return UnexpectedEOF(err)
}

// skipGroup skips the fields of group num up to its end, which must come within limit bytes (<0: no limit).
func (s *stream) skipGroup(num protowire.Number, limit int64) error {
	end := s.n + limit
	left := func() int64 {
		if limit < 0 {
			return -1
		}
		return end - s.n
	}
	for {
		n, typ, err := s.tag()
		if err != nil {
			return fmt.Errorf("group %d: %w", num, UnexpectedEOF(err))
		}
		if limit >= 0 && s.n > end {
			return io.ErrUnexpectedEOF // the tag ran past the message the group is in
		}
		if typ == protowire.EndGroupType {
			if n != num {
				return fmt.Errorf("group %d ended as %d", num, n)
			}
			return nil
		}
		if err := s.skip(n, typ, left()); err != nil {
			return err
		}
	}
}

// UnexpectedEOF turns io.EOF (a stream that ended inside a value) into io.ErrUnexpectedEOF; other errors
// are returned as they are.
func UnexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
