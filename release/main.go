// Command release packs kscope's release (`make dist`): for each platform an archive of the binary the
// Makefile built, README.md and the shell completions (a tar.gz, a zip for Windows), their SHA256SUMS,
// and from those checksums krew's manifest (kscope.yaml, for `kubectl kscope`) and a Homebrew formula
// (kscope.rb). The archives are reproducible: entries sorted, every time the commit's (-epoch), no owner,
// so the same binaries give the same SHA256SUMS. It reads only the files it is given: nothing downloads.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// completions are the files the Makefile generates with `kscope completion SHELL` into the -completions
// folder, and that each archive holds under completions/.
var completions = []string{"kscope.bash", "_kscope", "kscope.fish", "kscope.ps1"}

func main() {
	var o options
	flag.StringVar(&o.version, "version", "", "the version kscope was stamped with (`kscope version` prints it)")
	flag.Int64Var(&o.epoch, "epoch", 0, "every archive entry's time, in seconds since 1970 (the commit's time)")
	flag.StringVar(&o.bins, "bin", "", "the folder of the binaries: OS_ARCH/kscope (kscope.exe on Windows)")
	flag.StringVar(&o.completions, "completions", "", "the folder of the shell completions")
	flag.StringVar(&o.readme, "readme", "README.md", "the README put into each archive")
	flag.StringVar(&o.out, "out", "dist", "where the archives, SHA256SUMS, kscope.yaml and kscope.rb are written")
	flag.StringVar(&o.url, "url", "", "the https folder the archives are published in (the manifests point there)")
	flag.StringVar(&o.homepage, "homepage", "", "kscope's home page (https)")
	flag.Parse()
	if err := o.run(); err != nil {
		fmt.Fprintf(os.Stderr, "release: %s\n", err)
		os.Exit(1)
	}
}

// options are release's flags.
type options struct {
	version, bins, completions, readme, out, url, homepage string
	epoch                                                  int64
}

// run writes the archives and SHA256SUMS, then the manifests from the SHA256SUMS file it wrote.
func (o options) run() error {
	if err := checkVersion(o.version); err != nil {
		return err
	}
	if o.epoch <= 0 {
		return fmt.Errorf("-epoch %d: want the commit's time, in seconds since 1970", o.epoch)
	}
	mtime := time.Unix(o.epoch, 0)
	common, err := o.commonEntries()
	if err != nil {
		return err
	}
	sums := map[string]string{}
	for _, p := range platforms {
		bin, err := os.ReadFile(filepath.Join(o.bins, p.OS+"_"+p.Arch, binName(p)))
		if err != nil {
			return fmt.Errorf("binary for %s/%s: %w", p.OS, p.Arch, err)
		}
		entries := append([]entry{{name: binName(p), mode: 0o755, data: bin}}, common...)
		pack := tarGz
		if p.OS == "windows" {
			pack = zipArchive
		}
		data, err := pack(entries, mtime)
		if err != nil {
			return fmt.Errorf("archive for %s/%s: %w", p.OS, p.Arch, err)
		}
		name := archiveName(o.version, p)
		if err := os.WriteFile(filepath.Join(o.out, name), data, 0o644); err != nil {
			return fmt.Errorf("write archive: %w", err)
		}
		sum := sha256.Sum256(data)
		sums[name] = hex.EncodeToString(sum[:])
	}
	sumsPath := filepath.Join(o.out, "SHA256SUMS")
	if err := os.WriteFile(sumsPath, []byte(formatSums(sums)), 0o644); err != nil {
		return fmt.Errorf("write checksums: %w", err)
	}
	return o.manifests(sumsPath)
}

// commonEntries are the files every archive holds besides the binary: README.md and the completions.
func (o options) commonEntries() ([]entry, error) {
	readme, err := os.ReadFile(o.readme)
	if err != nil {
		return nil, fmt.Errorf("readme: %w", err)
	}
	entries := []entry{{name: "README.md", mode: 0o644, data: readme}}
	for _, name := range completions {
		data, err := os.ReadFile(filepath.Join(o.completions, name))
		if err != nil {
			return nil, fmt.Errorf("completion: %w", err)
		}
		if len(data) == 0 {
			return nil, fmt.Errorf("completion %s: empty", name)
		}
		entries = append(entries, entry{name: "completions/" + name, mode: 0o644, data: data})
	}
	return entries, nil
}

// manifests writes krew's manifest and the Homebrew formula from the checksums in sumsPath.
func (o options) manifests(sumsPath string) error {
	text, err := os.ReadFile(sumsPath)
	if err != nil {
		return fmt.Errorf("read checksums: %w", err)
	}
	sums, err := parseSums(string(text))
	if err != nil {
		return err
	}
	r, err := newRelease(o.version, o.homepage, o.url, sums)
	if err != nil {
		return err
	}
	for _, m := range []struct{ name, tmpl, file string }{
		{"krew manifest", krewTemplate, "kscope.yaml"},
		{"homebrew formula", formulaTemplate, "kscope.rb"},
	} {
		data, err := render(m.name, m.tmpl, r)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(o.out, m.file), data, fs.FileMode(0o644)); err != nil {
			return fmt.Errorf("write %s: %w", m.name, err)
		}
	}
	return nil
}
