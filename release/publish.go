package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"text/template"
)

// platform is one system kscope is released for, as GOOS and GOARCH name it.
type platform struct{ OS, Arch string }

// platforms are the systems of a release, in the order the manifest and the formula list them (the
// Makefile's PLATFORMS).
var platforms = []platform{
	{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}, {"windows", "amd64"}, {"windows", "arm64"},
}

// binName is the name of kscope's binary on p.
func binName(p platform) string {
	if p.OS == "windows" {
		return "kscope.exe"
	}
	return "kscope"
}

// archiveName is the name of p's release archive of version: a zip on Windows, a tar.gz elsewhere.
func archiveName(version string, p platform) string {
	ext := ".tar.gz"
	if p.OS == "windows" {
		ext = ".zip"
	}
	return "kscope_" + version + "_" + p.OS + "_" + p.Arch + ext
}

// safeVersion is what a version may hold: it is pasted into file names, YAML and Ruby.
var safeVersion = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// checkVersion refuses a version that is empty or holds anything but letters, digits and . _ + -.
func checkVersion(version string) error {
	if !safeVersion.MatchString(version) {
		return fmt.Errorf("version %q: want letters, digits and . _ + - only", version)
	}
	return nil
}

// sumLine is a line of SHA256SUMS as sha256sum writes it: the hex digest, two spaces (or a space and *, for
// binary mode), the file name.
var sumLine = regexp.MustCompile(`^([0-9a-f]{64}) [ *]([^\s/\\]+)$`)

// formatSums returns SHA256SUMS for sums (file name to hex digest): one line a file, sorted by name, as
// `sha256sum -c` reads them. Pure.
func formatSums(sums map[string]string) string {
	names := make([]string, 0, len(sums))
	for name := range sums {
		names = append(names, name)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, name := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[name], name)
	}
	return b.String()
}

// parseSums reads SHA256SUMS: file name to hex digest. A line that is not a digest and a plain file name,
// and a name given twice, are refused with the line's number. Pure.
func parseSums(text string) (map[string]string, error) {
	sums := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if line == "" && text == "" {
			break
		}
		m := sumLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("SHA256SUMS line %d: %q is not a sha256 digest and a file name", i+1, line)
		}
		if _, dup := sums[m[2]]; dup {
			return nil, fmt.Errorf("SHA256SUMS line %d: %s given twice", i+1, m[2])
		}
		sums[m[2]] = m[1]
	}
	return sums, nil
}

// publishedArchive is one platform's archive as the krew manifest and the Homebrew formula point at it.
type publishedArchive struct {
	OS, Arch string
	URI      string // where it is downloaded from
	SHA256   string
	Bin      string // the binary inside it
}

// release is what the krew manifest and the Homebrew formula say of one version.
type release struct {
	Version     string
	KrewVersion string // Version as krew requires it: semantic, with a leading v
	Homepage    string
	Archives    []publishedArchive
}

// archive returns the archive for os and arch; the templates call it.
func (r release) Archive(os, arch string) (publishedArchive, error) {
	for _, a := range r.Archives {
		if a.OS == os && a.Arch == arch {
			return a, nil
		}
	}
	return publishedArchive{}, fmt.Errorf("no archive for %s/%s", os, arch)
}

// semver matches a semantic version with a leading v (v1.2.3, v1.2.3-rc.1).
var semver = regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// krewVersion is version as krew's manifest requires it (a semantic version with a leading v): version
// itself when it is one (a release tag), else v0.0.0-version (a build between tags: `git describe`'s
// commit, a pre-release of nothing).
func krewVersion(version string) string {
	if semver.MatchString(version) {
		return version
	}
	if v := "v" + version; semver.MatchString(v) {
		return v
	}
	return "v0.0.0-" + strings.ReplaceAll(strings.ReplaceAll(version, "_", "-"), "+", "-")
}

// checkHTTPS refuses a URL that is not https, or that holds characters the manifest's YAML or the
// formula's Ruby strings would read (quotes, spaces, #{, backslashes).
func checkHTTPS(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("%s %q: %w", what, raw, err)
	}
	if u.Scheme != "https" || u.Host == "" || strings.ContainsAny(raw, " \t\n\"'\\#{}`$") {
		return fmt.Errorf("%s %q: want an https URL without quotes, spaces, # or braces", what, raw)
	}
	return nil
}

// newRelease is the release of version whose archives are downloaded from baseURL (the folder they are
// published in) and whose checksums sums holds (parseSums): every platform's archive must have one. Pure.
func newRelease(version, homepage, baseURL string, sums map[string]string) (release, error) {
	if err := checkVersion(version); err != nil {
		return release{}, err
	}
	if err := checkHTTPS("homepage", homepage); err != nil {
		return release{}, err
	}
	if err := checkHTTPS("release URL", baseURL); err != nil {
		return release{}, err
	}
	r := release{Version: version, KrewVersion: krewVersion(version), Homepage: homepage}
	for _, p := range platforms {
		name := archiveName(version, p)
		sum, ok := sums[name]
		if !ok {
			return release{}, fmt.Errorf("SHA256SUMS has no %s", name)
		}
		r.Archives = append(r.Archives, publishedArchive{OS: p.OS, Arch: p.Arch,
			URI: strings.TrimSuffix(baseURL, "/") + "/" + name, SHA256: sum, Bin: binName(p)})
	}
	return r, nil
}

//go:embed krew.yaml.tmpl
var krewTemplate string

//go:embed kscope.rb.tmpl
var formulaTemplate string

// render executes the template text (krew.yaml.tmpl, kscope.rb.tmpl) over r. Pure.
func render(name, text string, r release) ([]byte, error) {
	t, err := template.New(name).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, r); err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	return buf.Bytes(), nil
}
