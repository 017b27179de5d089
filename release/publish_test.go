package main

import (
	"strings"
	"testing"
)

// sumsOf returns SHA256SUMS text with a distinct digest for each platform's archive of version.
func sumsOf(version string) string {
	sums := map[string]string{}
	for i, p := range platforms {
		sums[archiveName(version, p)] = strings.Repeat(string(rune('a'+i)), 64)
	}
	return formatSums(sums)
}

// TestParseSums: SHA256SUMS as sha256sum writes it (two spaces, or " *" in binary mode) is read back; a
// malformed line, a path and a name given twice are refused with the line's number.
func TestParseSums(t *testing.T) {
	d := strings.Repeat("0", 64)
	for _, tc := range []struct {
		name, text string
		want       map[string]string
		err        string
	}{
		{"text mode", d + "  a.tar.gz\n", map[string]string{"a.tar.gz": d}, ""},
		{"binary mode", d + " *a.zip\n", map[string]string{"a.zip": d}, ""},
		{"no final newline", d + "  a.zip", map[string]string{"a.zip": d}, ""},
		{"empty", "", map[string]string{}, ""},
		{"short digest", "abc  a.zip\n", nil, "line 1"},
		{"upper-case digest", strings.ToUpper(strings.Repeat("a", 64)) + "  a.zip\n", nil, "line 1"},
		{"one space", d + " a.zip\n", nil, "line 1"},
		{"a path", d + "  ../a.zip\n", nil, "line 1"},
		{"blank line", d + "  a.zip\n\n" + d + "  b.zip\n", nil, "line 2"},
		{"twice", d + "  a.zip\n" + d + "  a.zip\n", nil, "line 2: a.zip given twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseSums(tc.text)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("parseSums = %v, %v; want an error with %q", got, err, tc.err)
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("parseSums = %v, %v; want %v", got, err, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s: %q, want %q", k, got[k], v)
				}
			}
		})
	}
	// What formatSums writes, parseSums reads, sorted by name.
	text := sumsOf("v1.2.3")
	got, err := parseSums(text)
	if err != nil || len(got) != len(platforms) {
		t.Fatalf("round trip: %v, %v", got, err)
	}
	if lines := strings.Split(strings.TrimSpace(text), "\n"); !strings.HasSuffix(lines[0], "_darwin_amd64.tar.gz") {
		t.Errorf("SHA256SUMS not sorted by name: %q first", lines[0])
	}
}

// TestKrewVersion: krew needs a semantic version with a leading v; a build between tags is a pre-release
// of v0.0.0.
func TestKrewVersion(t *testing.T) {
	for in, want := range map[string]string{
		"v1.2.3":        "v1.2.3",
		"v1.2.3-rc.1":   "v1.2.3-rc.1",
		"1.2.3":         "v1.2.3",
		"70096b4":       "v0.0.0-70096b4",
		"70096b4-dirty": "v0.0.0-70096b4-dirty",
		"v1.2.3-4-gabc": "v1.2.3-4-gabc",
		"v1.2":          "v0.0.0-v1.2",
		"a_b+c":         "v0.0.0-a-b-c",
	} {
		if got := krewVersion(in); got != want || !semver.MatchString(got) {
			t.Errorf("krewVersion(%q) = %q, want %q (semantic)", in, got, want)
		}
	}
}

// TestManifestsFromSums: the krew manifest and the Homebrew formula point each platform at its archive's
// URL with the digest SHA256SUMS gives it, and name its binary.
func TestManifestsFromSums(t *testing.T) {
	const version, base = "v1.2.3", "https://example.com/kscope/releases/download/v1.2.3/"
	sums, err := parseSums(sumsOf(version))
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRelease(version, "https://example.com/kscope", base, sums)
	if err != nil {
		t.Fatal(err)
	}
	krew, err := render("krew", krewTemplate, r)
	if err != nil {
		t.Fatal(err)
	}
	formula, err := render("formula", formulaTemplate, r)
	if err != nil {
		t.Fatal(err)
	}
	k, f := string(krew), string(formula)
	for _, want := range []string{"name: kscope\n", "version: v1.2.3\n", "homepage: https://example.com/kscope\n"} {
		if !strings.Contains(k, want) {
			t.Errorf("krew manifest lacks %q:\n%s", want, k)
		}
	}
	for i, p := range platforms {
		uri := base + archiveName(version, p)
		digest := strings.Repeat(string(rune('a'+i)), 64)
		block := "        os: " + p.OS + "\n        arch: " + p.Arch + "\n    uri: " + uri + "\n    sha256: " + digest +
			"\n    bin: " + binName(p) + "\n"
		if !strings.Contains(k, block) {
			t.Errorf("krew manifest has no entry for %s/%s:\n%s\nin\n%s", p.OS, p.Arch, block, k)
		}
		if p.OS == "windows" {
			if strings.Contains(f, uri) {
				t.Errorf("the formula points at the Windows archive %s", uri)
			}
			continue
		}
		if !strings.Contains(f, "url \""+uri+"\"\n      sha256 \""+digest+"\"\n") {
			t.Errorf("the formula lacks %s/%s's url and sha256:\n%s", p.OS, p.Arch, f)
		}
	}
	for _, section := range []struct{ os, arch, block, cpu string }{
		{"darwin", "arm64", "on_macos do", "on_arm do"}, {"darwin", "amd64", "on_macos do", "on_intel do"},
		{"linux", "arm64", "on_linux do", "on_arm do"}, {"linux", "amd64", "on_linux do", "on_intel do"},
	} {
		rest := f[max(strings.Index(f, section.block), 0):]
		rest = rest[max(strings.Index(rest, section.cpu), 0):]
		end := strings.Index(rest, "end\n")
		if !strings.HasPrefix(rest, section.cpu) || end < 0 || !strings.Contains(rest[:end], "_"+section.os+"_"+section.arch+".tar.gz") {
			t.Errorf("the formula's %s %s does not point at the %s/%s archive:\n%s", section.block, section.cpu, section.os, section.arch, f)
		}
	}
	if !strings.Contains(f, `version "v1.2.3"`) || !strings.Contains(f, `bin.install "kscope"`) {
		t.Errorf("formula:\n%s", f)
	}
}

// TestReleaseRefuses: a missing archive, a URL a manifest would read as more than a URL, and a version
// that is not a plain word refuse the release, naming what is wrong.
func TestReleaseRefuses(t *testing.T) {
	sums, err := parseSums(sumsOf("v1"))
	if err != nil {
		t.Fatal(err)
	}
	partial, _ := parseSums(sumsOf("v1"))
	delete(partial, archiveName("v1", platform{"windows", "arm64"}))
	for _, tc := range []struct {
		name, version, homepage, url string
		sums                         map[string]string
		want                         string
	}{
		{"missing archive", "v1", "https://h", "https://u", partial, "no kscope_v1_windows_arm64.zip"},
		{"other version", "v2", "https://h", "https://u", sums, "no kscope_v2_linux_amd64.tar.gz"},
		{"http", "v1", "https://h", "http://u", sums, "release URL"},
		{"quote", "v1", "https://h", `https://u/"; system "x`, sums, "release URL"},
		{"interpolation", "v1", `https://h/#{system("x")}`, "https://u", sums, "homepage"},
		{"newline", "v1", "https://h", "https://u/a\nb", sums, "release URL"},
		{"version with a quote", `v1"`, "https://h", "https://u", sums, "version"},
		{"empty version", "", "https://h", "https://u", sums, "version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := newRelease(tc.version, tc.homepage, tc.url, tc.sums); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("newRelease: %v; want an error with %q", err, tc.want)
			}
		})
	}
}
