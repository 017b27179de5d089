package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The limits of what `:apply PATH` reads: a folder of more files, or more bytes in all, is refused (nothing
// of it parsed or sent), so that a path naming something huge never exhausts kscope's memory.
const (
	// MaxFiles is the most .yaml, .yml and .json files of a folder that :apply reads.
	MaxFiles = 1000
	// MaxBytes is the most bytes :apply reads in all: a file's, or a folder's files' together.
	MaxBytes = 16 << 20
)

// Limits words MaxFiles and MaxBytes, for the usage line and the screen of a read in progress.
const Limits = "regular files only, at most 1000 files and 16 MiB in all"

// readChunk is the most bytes one Read asks for, so that a cancelled read stops between two of them.
const readChunk = 256 << 10

// Source is one text of documents to apply: a file, or the editor's text, named as the messages name it.
type Source struct {
	Name string
	Data []byte
}

// ReadPath reads what `:apply PATH` names (relative to kscope's working directory): a file (named path), or
// a folder's files ending in .yaml, .yml or .json in name order, not its sub-folders nor its symbolic
// links (each named by its name in the folder). A folder without one is an error. The path is opened
// non-blocking and checked after the open (fstat): what is not a regular file or a folder (a FIFO, a
// device, a socket) is refused unread; so are more than MaxFiles files and more than MaxBytes bytes in
// all, even from a file that grows while it is read. A symbolic link named as path is followed (a loop
// is an error). ctx cancels the read between two files or two chunks of one; its error is then ctx's.
// Any goroutine; it blocks on the file system, never on a reader that writes nothing.
func ReadPath(ctx context.Context, path string) ([]Source, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlag, 0)
	if err != nil {
		return nil, pathless(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, pathless(err)
	}
	if info.IsDir() {
		return readFolder(ctx, f, path)
	}
	if err := regular(info.Mode()); err != nil {
		return nil, err
	}
	left := int64(MaxBytes)
	data, err := readAll(ctx, f, info.Size(), &left)
	if errors.Is(err, errOverLimit) {
		return nil, fmt.Errorf("refused: more than %d MiB (the limit of :apply)", MaxBytes>>20)
	}
	if err != nil {
		return nil, err
	}
	return []Source{{Name: path, Data: data}}, nil
}

// readFolder reads the manifests of the folder dir (at path), as ReadPath says.
func readFolder(ctx context.Context, dir *os.File, path string) ([]Source, error) {
	var names []string
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		entries, err := dir.ReadDir(256)
		for _, e := range entries {
			if !manifestName(e.Name()) || !e.Type().IsRegular() {
				continue
			}
			if len(names) == MaxFiles {
				return nil, fmt.Errorf("refused: more than %d .yaml, .yml and .json files (the limit of :apply)", MaxFiles)
			}
			names = append(names, e.Name())
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, pathless(err)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("no .yaml, .yml or .json file in %s", path)
	}
	out := make([]Source, 0, len(names))
	left := int64(MaxBytes)
	for _, n := range names {
		data, err := readEntry(ctx, filepath.Join(path, n), &left)
		if errors.Is(err, errOverLimit) {
			return nil, fmt.Errorf("refused: more than %d MiB in all, at %s (the limit of :apply)", MaxBytes>>20, n)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		out = append(out, Source{Name: n, Data: data}) // (the messages name the folder, then the file)
	}
	return out, nil
}

// readEntry reads a folder's file at path within *left bytes: opened non-blocking and without following a
// symbolic link (one that replaced the file listed since is refused), then checked to be a regular file.
func readEntry(ctx context.Context, path string, left *int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|entryFlag, 0)
	if err != nil {
		return nil, pathless(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, pathless(err)
	}
	if err := regular(info.Mode()); err != nil {
		return nil, err
	}
	return readAll(ctx, f, info.Size(), left)
}

// errOverLimit is a read refused for going over the bytes left.
var errOverLimit = errors.New("over the limit")

// readAll reads f, of size bytes when it was opened, within *left bytes, which it lessens by what it read:
// a file larger than *left is refused unread, and one that grows past it while it is read stops at one
// byte more (errOverLimit). ctx stops it between two chunks.
func readAll(ctx context.Context, f *os.File, size int64, left *int64) ([]byte, error) {
	if size > *left {
		return nil, errOverLimit
	}
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(ctxReader{ctx, f}, *left+1)); err != nil {
		return nil, pathless(err)
	}
	if int64(buf.Len()) > *left {
		return nil, errOverLimit
	}
	*left -= int64(buf.Len())
	return buf.Bytes(), nil
}

// ctxReader reads r in chunks of at most readChunk bytes until ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read implements io.Reader.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) > readChunk {
		p = p[:readChunk]
	}
	return c.r.Read(p)
}

// regular refuses, in words, what mode says is not a regular file.
func regular(mode fs.FileMode) error {
	if mode.IsRegular() {
		return nil
	}
	what := ""
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = " (a FIFO)"
	case mode&fs.ModeCharDevice != 0:
		what = " (a character device)"
	case mode&fs.ModeDevice != 0:
		what = " (a device)"
	case mode&fs.ModeSocket != 0:
		what = " (a socket)"
	case mode.IsDir():
		what = " (a folder)"
	}
	return errors.New("refused: not a regular file" + what)
}

// pathless is err without the operation and path of an *fs.PathError (the messages name the path).
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// manifestName tells whether a folder's file named name is applied (.yaml, .yml, .json).
func manifestName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}
