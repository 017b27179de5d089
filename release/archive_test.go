package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"
)

// archiveEntries is what a release archive holds, out of order.
var archiveEntries = []entry{
	{name: "completions/kscope.bash", mode: 0o644, data: []byte("# bash\n")},
	{name: "kscope", mode: 0o755, data: bytes.Repeat([]byte("binary"), 1000)},
	{name: "README.md", mode: 0o644, data: []byte("# kscope\n")},
}

// readBack is an archive's entries as its reader gives them: name, mode, time, owner and bytes.
type readBack struct {
	name     string
	mode     fs.FileMode
	mtime    time.Time
	uid, gid int
	owner    string
	data     string
}

func readTarGz(t *testing.T, data []byte) []readBack {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if gz.Name != "" || !gz.ModTime.IsZero() {
		t.Errorf("gzip header has name %q, time %v: want neither", gz.Name, gz.ModTime)
	}
	tr := tar.NewReader(gz)
	var got []readBack
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, readBack{hdr.Name, hdr.FileInfo().Mode(), hdr.ModTime, hdr.Uid, hdr.Gid, hdr.Uname + hdr.Gname, string(b)})
	}
}

func readZip(t *testing.T, data []byte) []readBack {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var got []readBack
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, readBack{f.Name, f.Mode(), f.Modified, 0, 0, "", string(b)})
	}
	return got
}

// TestArchivesReproducible: a tar.gz and a zip of the same entries and time are the same bytes whatever the
// entries' order; their entries are sorted by name, carry that time and their modes, and no owner.
func TestArchivesReproducible(t *testing.T) {
	mtime := time.Date(2026, 12, 7, 18, 0, 0, 0, time.UTC)
	reversed := slices.Clone(archiveEntries)
	slices.Reverse(reversed)
	for _, tc := range []struct {
		name string
		pack func([]entry, time.Time) ([]byte, error)
		read func(*testing.T, []byte) []readBack
	}{
		{"tar.gz", tarGz, readTarGz},
		{"zip", zipArchive, readZip},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := tc.pack(archiveEntries, mtime)
			if err != nil {
				t.Fatal(err)
			}
			b, err := tc.pack(reversed, mtime.In(time.FixedZone("elsewhere", 3600)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatal("the same entries and time gave different bytes")
			}
			if c, _ := tc.pack(archiveEntries, mtime.Add(time.Second)); bytes.Equal(a, c) {
				t.Fatal("the entries' time is not in the archive")
			}
			got := tc.read(t, a)
			var names []string
			for _, e := range got {
				names = append(names, e.name)
			}
			if want := []string{"README.md", "completions/kscope.bash", "kscope"}; !slices.Equal(names, want) {
				t.Fatalf("entries %q, want %q (sorted)", names, want)
			}
			for _, e := range got {
				i := slices.IndexFunc(archiveEntries, func(in entry) bool { return in.name == e.name })
				in := archiveEntries[i]
				if e.mode.Perm() != in.mode || !e.mode.IsRegular() {
					t.Errorf("%s: mode %v, want %v", e.name, e.mode, in.mode)
				}
				if !e.mtime.Equal(mtime) {
					t.Errorf("%s: time %v, want %v", e.name, e.mtime, mtime)
				}
				if e.uid != 0 || e.gid != 0 || e.owner != "" {
					t.Errorf("%s: owner %d:%d %q, want 0:0 and no names", e.name, e.uid, e.gid, e.owner)
				}
				if e.data != string(in.data) {
					t.Errorf("%s: %d bytes, want %d", e.name, len(e.data), len(in.data))
				}
			}
		})
	}
}

// TestArchiveRefusesBadNames: an entry outside the archive, an empty or backslashed name and a name given
// twice are refused.
func TestArchiveRefusesBadNames(t *testing.T) {
	for _, name := range []string{"../kscope", "/kscope", "", ".", `completions\kscope.ps1`, "a//b"} {
		for _, pack := range []func([]entry, time.Time) ([]byte, error){tarGz, zipArchive} {
			if _, err := pack([]entry{{name: name, mode: 0o644}}, time.Unix(1, 0)); err == nil || !strings.Contains(err.Error(), "not a relative path") {
				t.Errorf("entry %q: %v, want refused", name, err)
			}
		}
	}
	twice := []entry{{name: "kscope", mode: 0o755}, {name: "kscope", mode: 0o644}}
	if _, err := tarGz(twice, time.Unix(1, 0)); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("an entry given twice: %v, want refused", err)
	}
}
