package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestSettingsK9sConfig: k9s's config.yaml as k9s writes it gives the settings kscope uses; the rest of
// k9s's fields are ignored; wrong types and bad values are one Problem naming the line.
func TestSettingsK9sConfig(t *testing.T) {
	k9sWritten := `k9s:
  liveViewAutoRefresh: false
  screenDumpDir: /tmp/dumps
  refreshRate: 2
  apiServerTimeout: 15s
  maxConnRetry: 5
  readOnly: true
  noExitOnCtrlC: false
  portForwardAddress: localhost
  ui:
    enableMouse: true
    headless: false
    logoless: false
    crumbsless: false
    splashless: false
    reactive: false
    noIcons: false
    defaultsToFullScreen: false
    useFullGVRTitle: false
    skin: dracula
  skipLatestRevCheck: false
  disablePodCounting: false
  shellPod:
    image: busybox:1.35.0
    namespace: default
    limits:
      cpu: 100m
      memory: 100Mi
  imageScans:
    enable: false
    exclusions:
      namespaces: []
      labels: {}
  logger:
    tail: 100
    buffer: 5000
    sinceSeconds: -1
    textWrap: false
    disableAutoscroll: true
    showTime: true
  thresholds:
    cpu:
      critical: 90
      warn: 70
  defaultView: apps/v1/deployments
`
	tests := []struct {
		name, text string
		want       Settings
		problems   []string // each a line of its own, after the file's path
	}{
		{name: "k9s's own file", text: k9sWritten, want: Settings{ReadOnly: ptr(true), Mouse: ptr(true), Skin: "dracula",
			SaveDir: "/tmp/dumps", StartView: "deployments.apps", LogLines: 5000, LogTail: 100,
			LogWrap: ptr(false), LogTimestamps: ptr(true), LogFollow: ptr(false)}},
		{name: "a few fields", text: "k9s:\n  logger:\n    buffer: 42\n", want: Settings{LogLines: 42}},
		{name: "empty", text: "", want: Settings{}},
		{name: "unknown fields", text: "k9s:\n  somethingNew: 3\n  ui:\n    future: [1]\n", want: Settings{}},
		// a value kscope cannot use is ignored, with one line; readOnly and the rest are still read
		{name: "wrong type", text: "k9s:\n  readOnly: true\n  ui:\n    enableMouse: yes please\n",
			want: Settings{ReadOnly: ptr(true)}, problems: []string{"line 4: k9s.ui.enableMouse: want true or false, not string; ignored"}},
		{name: "number as word", text: "k9s:\n  readOnly: true\n  logger:\n    tail: 100\n    buffer: lots\n",
			want: Settings{ReadOnly: ptr(true), LogTail: 100}, problems: []string{"line 5: k9s.logger.buffer: want a number, not string; ignored"}},
		{name: "buffer over k9s's limit", text: "k9s:\n  readOnly: true\n  logger:\n    buffer: 10000\n",
			want: Settings{ReadOnly: ptr(true)}, problems: []string{"line 4: k9s.logger.buffer: 10000 is not between 1 and 5000; ignored"}},
		{name: "out of range", text: "k9s:\n  logger:\n    buffer: 0\n", want: Settings{},
			problems: []string{"line 3: k9s.logger.buffer: 0 is not between 1 and 5000; ignored"}},
		{name: "refreshRate as a word", text: "k9s:\n  refreshRate: fast\n  readOnly: true\n",
			want: Settings{ReadOnly: ptr(true)}, problems: []string{"line 2: k9s.refreshRate: want a number, not string; ignored"}},
		{name: "skin with a folder", text: "k9s:\n  readOnly: true\n  ui:\n    skin: my/skin\n    enableMouse: true\n",
			want: Settings{ReadOnly: ptr(true), Mouse: ptr(true)}, problems: []string{`line 4: k9s.ui.skin: "my/skin" is not a skin's name (skins/NAME.yaml); ignored`}},
		{name: "several problems, each a line", text: "k9s:\n  readOnly: true\n  refreshRate: fast\n  ui: [1]\n  logger:\n    buffer: 10000\n",
			want: Settings{ReadOnly: ptr(true)}, problems: []string{"line 3: k9s.refreshRate: want a number, not string; ignored",
				"line 4: k9s.ui: want a mapping, not array; ignored", "line 6: k9s.logger.buffer: 10000 is not between 1 and 5000; ignored"}},
		{name: "readOnly false next to a problem", text: "k9s:\n  readOnly: false\n  logger:\n    buffer: 10000\n",
			want: Settings{ReadOnly: ptr(false)}, problems: []string{"line 4: k9s.logger.buffer: 10000 is not between 1 and 5000; ignored"}},
		// fail closed: what cannot say whether it asks for read-only starts kscope read-only
		{name: "readOnly not a boolean", text: "k9s:\n  readOnly: [x]\n", want: Settings{ReadOnly: ptr(true), ForceReadOnly: true},
			problems: []string{"line 2: k9s.readOnly: want true or false, not array; kscope starts read-only"}},
		{name: "k9s not a mapping", text: "k9s: 3\n", want: Settings{ReadOnly: ptr(true), ForceReadOnly: true},
			problems: []string{"line 1: k9s: want a mapping, not number; kscope starts read-only"}},
		{name: "broken YAML", text: "k9s:\n  readOnly: false\n   ui: [\n", want: Settings{ReadOnly: ptr(true), ForceReadOnly: true},
			problems: []string{"cannot be parsed (line 3: mapping values are not allowed in this context); kscope starts read-only"}},
		{name: "not a mapping", text: "- readOnly: false\n", want: Settings{ReadOnly: ptr(true), ForceReadOnly: true},
			problems: []string{"cannot be parsed (line 1: want a mapping, not array); kscope starts read-only"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "config.yaml", tt.text)
			s, f, err := LoadSettings(Dirs{KScope: dir})
			var want []string
			for _, p := range tt.problems {
				want = append(want, filepath.Join(dir, "config.yaml")+": "+p)
			}
			if got := Lines(err); !reflect.DeepEqual(got, want) {
				t.Errorf("problems:\n%q\nwant\n%q", got, want)
			}
			if f.From != "kscope" || !reflect.DeepEqual(s, tt.want) {
				t.Fatalf("got %+v %+v, want %+v", s, f, tt.want)
			}
		})
	}
}

// TestSettingsUnreadableFile: a config.yaml that exists but cannot be read starts kscope read-only.
func TestSettingsUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "config.yaml"), 0o700); err != nil { // a folder: reading fails
		t.Fatal(err)
	}
	s, _, err := LoadSettings(Dirs{KScope: dir})
	if !s.ForceReadOnly || s.ReadOnly == nil || !*s.ReadOnly || err == nil || !strings.HasSuffix(err.Error(), "; kscope starts read-only") {
		t.Fatalf("got %+v %v, want read-only and why", s, err)
	}
}

// TestSettingsFallBackToK9s: without kscope's config.yaml, k9s's is read (and File says so).
func TestSettingsFallBackToK9s(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	if _, f, err := LoadSettings(d); err != nil || f.From != "" || f.Path != filepath.Join(d.KScope, "config.yaml") {
		t.Fatalf("none: %+v %v", f, err)
	}
	write(t, d.K9s, "config.yaml", "k9s:\n  readOnly: true\n")
	if s, f, err := LoadSettings(d); err != nil || f.From != "k9s" || s.ReadOnly == nil || !*s.ReadOnly {
		t.Fatalf("k9s's: %+v %+v %v", s, f, err)
	}
	write(t, d.KScope, "config.yaml", "k9s:\n  readOnly: false\n")
	if s, f, err := LoadSettings(d); err != nil || f.From != "kscope" || s.ReadOnly == nil || *s.ReadOnly {
		t.Fatalf("kscope's: %+v %+v %v", s, f, err)
	}
}

// TestContextSettings: k9s's per-context file (under its data folder, names sanitized as k9s does).
func TestContextSettings(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "data-k9s")}
	write(t, filepath.Join(d.K9sData, "clusters", "arn-aws-eks-x-cluster-prod", "prod"), "config.yaml",
		"k9s:\n  cluster: arn:aws:eks:x:cluster/prod\n  readOnly: true\n  skin: red\n  namespace:\n    active: shop\n    lockFavorites: false\n    favorites: [shop, default]\n  view:\n    active: v1/pods\n  featureGates:\n    nodeShell: false\n")
	s, f, err := LoadContextSettings(d, "arn:aws:eks:x:cluster/prod", "prod")
	want := ContextSettings{ReadOnly: ptr(true), Skin: "red", Namespace: "shop", View: "pods", Favorites: []string{"shop", "default"}}
	if err != nil || f.From != "k9s" || !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v %+v %v, want %+v", s, f, err, want)
	}
	if s, f, err := LoadContextSettings(d, "other", "ctx"); err != nil || f.From != "" || !reflect.DeepEqual(s, ContextSettings{}) ||
		f.Path != filepath.Join(d.KScope, "clusters", "other", "ctx", "config.yaml") {
		t.Fatalf("none: %+v %+v %v", s, f, err)
	}
	for _, tt := range []struct {
		name, text string
		want       ContextSettings
		problem    string
	}{
		{name: "readOnly next to a bad skin", text: "k9s:\n  readOnly: true\n  skin: my/skin\n  namespace:\n    active: shop\n",
			want: ContextSettings{ReadOnly: ptr(true), Namespace: "shop"}, problem: `line 3: k9s.skin: "my/skin" is not a skin's name (skins/NAME.yaml); ignored`},
		{name: "readOnly next to a bad namespace", text: "k9s:\n  namespace: [shop]\n  readOnly: true\n",
			want: ContextSettings{ReadOnly: ptr(true)}, problem: "line 2: k9s.namespace: want a mapping, not array; ignored"},
		{name: "a favourite that is no namespace", text: "k9s:\n  readOnly: true\n  namespace:\n    favorites: [shop, Not_A_Name, shop, web]\n",
			want:    ContextSettings{ReadOnly: ptr(true), Favorites: []string{"shop", "web"}},
			problem: `line 4: k9s.namespace.favorites: "Not_A_Name" is not a namespace: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'); ignored`},
		{name: "readOnly not a boolean", text: "k9s:\n  readOnly: [x]\n", want: ContextSettings{ReadOnly: ptr(true), ForceReadOnly: true},
			problem: "line 2: k9s.readOnly: want true or false, not array; kscope starts read-only"},
		{name: "broken YAML", text: "k9s:\n  readOnly: false\n  view: {\n", want: ContextSettings{ReadOnly: ptr(true), ForceReadOnly: true},
			problem: "cannot be parsed (line 3: did not find expected node content); kscope starts read-only"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			write(t, filepath.Join(d.KScope, "clusters", "other", "ctx"), "config.yaml", tt.text)
			s, f, err := LoadContextSettings(d, "other", "ctx")
			if err == nil || err.Error() != f.Path+": "+tt.problem || !reflect.DeepEqual(s, tt.want) {
				t.Fatalf("got %+v %v, want %+v and %s", s, err, tt.want, tt.problem)
			}
		})
	}
}

// TestKeysFile: keys.yaml is kscope's only; names sorted; empty keys refused.
func TestKeysFile(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s")}
	write(t, d.K9s, "keys.yaml", "keys:\n  yaml: x\n")
	if k, f, err := LoadKeys(d); err != nil || len(k) != 0 || f.From != "" {
		t.Fatalf("k9s's folder is not read: %v %+v %v", k, f, err)
	}
	write(t, d.KScope, "keys.yaml", "keys:\n  yaml: Shift-Y\n  describe: x\n")
	k, f, err := LoadKeys(d)
	if want := []KeyRemap{{"describe", "x"}, {"yaml", "Shift-Y"}}; err != nil || f.From != "kscope" || !reflect.DeepEqual(k, want) {
		t.Fatalf("got %v %+v %v, want %v", k, f, err, want)
	}
	for text, problem := range map[string]string{
		"keys:\n  yaml: \"\"\n":     `keys: "yaml" → "": a key's name and its new key are both needed`,
		"keys:\n  yaml: [a, b]\n":   "line 2: keys: want a string, not array",
		"keys:\n  yaml: x\n y: z\n": "line 2: did not find expected key",
	} {
		write(t, d.KScope, "keys.yaml", text)
		if _, _, err := LoadKeys(d); err == nil || err.Error() != filepath.Join(d.KScope, "keys.yaml")+": "+problem {
			t.Errorf("%q: %v, want %s", text, err, problem)
		}
	}
}
