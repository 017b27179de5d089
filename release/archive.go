package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// entry is one file of a release archive: its path inside the archive (slash-separated), its mode (0755 for
// the binary, 0644 for the rest) and its bytes.
type entry struct {
	name string
	mode fs.FileMode
	data []byte
}

// sortedEntries returns a copy of entries sorted by name, refusing two entries of one name and a name that
// is not a clean relative path inside the archive (absolute, "..", empty or backslashed). Pure.
func sortedEntries(entries []entry) ([]entry, error) {
	sorted := slices.Clone(entries)
	slices.SortFunc(sorted, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for i, e := range sorted {
		if !fs.ValidPath(e.name) || e.name == "." || strings.Contains(e.name, `\`) {
			return nil, fmt.Errorf("archive entry %q: not a relative path inside the archive", e.name)
		}
		if i > 0 && sorted[i-1].name == e.name {
			return nil, fmt.Errorf("archive entry %q: given twice", e.name)
		}
	}
	return sorted, nil
}

// tarGz returns a gzip-compressed tar archive of entries: sorted by name, each with mtime as its time,
// owned by uid and gid 0 with no owner names, and a gzip header with no name or time, so that the same
// entries and mtime give the same bytes. Pure.
func tarGz(entries []entry, mtime time.Time) ([]byte, error) {
	sorted, err := sortedEntries(entries)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	gz, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	tw := tar.NewWriter(gz)
	for _, e := range sorted {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     e.name,
			Mode:     int64(e.mode.Perm()),
			Size:     int64(len(e.data)),
			ModTime:  mtime.UTC().Truncate(time.Second),
			Format:   tar.FormatPAX,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("tar %s: %w", e.name, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, fmt.Errorf("tar %s: %w", e.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("tar: %w", err)
	}
	if err := gz.Close(); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return buf.Bytes(), nil
}

// zipArchive returns a zip archive of entries (deflated): sorted by name, each with mtime as its time and
// its mode, so that the same entries and mtime give the same bytes. Pure.
func zipArchive(entries []entry, mtime time.Time) ([]byte, error) {
	sorted, err := sortedEntries(entries)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range sorted {
		hdr := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime.UTC().Truncate(time.Second)}
		hdr.SetMode(e.mode.Perm())
		w, err := zw.CreateHeader(hdr)
		if err != nil {
			return nil, fmt.Errorf("zip %s: %w", e.name, err)
		}
		if _, err := w.Write(e.data); err != nil {
			return nil, fmt.Errorf("zip %s: %w", e.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	return buf.Bytes(), nil
}
