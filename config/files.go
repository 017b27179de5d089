package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"sigs.k8s.io/yaml"
)

// Dirs are the folders the configuration is read from.
type Dirs struct {
	// KScope is kscope's own folder; K9s is k9s's, read for the files kscope's lacks.
	KScope, K9s string
	// K9sData is where k9s keeps its per-context files (clusters/CLUSTER/CONTEXT/config.yaml):
	// $K9S_CONFIG_DIR, else $XDG_DATA_HOME/k9s (~/.local/share/k9s).
	K9sData string
}

// DefaultDirs returns the folders the environment names: $KSCOPE_CONFIG_DIR or $XDG_CONFIG_HOME/kscope,
// and $K9S_CONFIG_DIR or $XDG_CONFIG_HOME/k9s ($XDG_CONFIG_HOME defaulting to ~/.config).
func DefaultDirs() Dirs {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		if home, err := os.UserHomeDir(); err == nil {
			base = filepath.Join(home, ".config")
		}
	}
	d := Dirs{KScope: os.Getenv("KSCOPE_CONFIG_DIR"), K9s: os.Getenv("K9S_CONFIG_DIR")}
	if d.KScope == "" {
		d.KScope = filepath.Join(base, "kscope")
	}
	if d.K9s == "" {
		d.K9s = filepath.Join(base, "k9s")
		d.K9sData = filepath.Join(dataHome(), "k9s")
	} else {
		d.K9sData = d.K9s
	}
	return d
}

// dataHome is $XDG_DATA_HOME, else ~/.local/share.
func dataHome() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".local", "share")
}

// File is one configuration file kscope looks for: the path it read (or would write), and where it came from.
type File struct {
	Kind string // "aliases", "hotkeys"
	Path string
	// From is "kscope", "k9s" (kscope has no such file: k9s's was read), "both" (jumps.yaml: Path is
	// kscope's, read over k9s's) or "" (neither exists; Path is kscope's, where one would go).
	From string
}

// Problem is a configuration file that could not be used: one line naming the file and what is wrong.
type Problem struct {
	Path, Text string
}

func (p Problem) Error() string { return p.Path + ": " + p.Text }

// find returns the file of kind name (aliases.yaml): kscope's if it exists, else k9s's if it exists, else
// kscope's path marked as absent.
func (d Dirs) find(kind, name string) File {
	for _, c := range []struct{ dir, from string }{{d.KScope, "kscope"}, {d.K9s, "k9s"}} {
		if c.dir == "" {
			continue
		}
		p := filepath.Join(c.dir, name)
		if _, err := os.Stat(p); err == nil {
			return File{Kind: kind, Path: p, From: c.from}
		}
	}
	return File{Kind: kind, Path: filepath.Join(d.KScope, name)}
}

// yamlLine finds the line number sigs.k8s.io/yaml's errors carry ("yaml: line 3: …").
var yamlLine = regexp.MustCompile(`yaml: line (\d+): (.*)`)

// read parses f into v; a missing file leaves v as it is. The error is a Problem.
func read(f File, v any) error {
	if f.From == "" {
		return nil
	}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return Problem{Path: f.Path, Text: err.Error()}
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		return Problem{Path: f.Path, Text: yamlErrorText(data, err)}
	}
	return nil
}

// yamlErrorText is sigs.k8s.io/yaml's error about data as one line: the line it is on, then the problem.
func yamlErrorText(data []byte, err error) string {
	if text, ok := typeProblem(data, err); ok {
		return text
	}
	text := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	if m := yamlLine.FindStringSubmatch(text); m != nil {
		text = fmt.Sprintf("line %s: %s", m[1], m[2])
	}
	return strings.TrimPrefix(text, "error unmarshaling JSON: while decoding JSON: ")
}
