package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

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
		problem    string
	}{
		{name: "k9s's own file", text: k9sWritten, want: Settings{ReadOnly: ptr(true), Mouse: ptr(true), Skin: "dracula",
			SaveDir: "/tmp/dumps", StartView: "deployments.apps", LogLines: 5000, LogTail: 100,
			LogWrap: ptr(false), LogTimestamps: ptr(true), LogFollow: ptr(false)}},
		{name: "a few fields", text: "k9s:\n  logger:\n    buffer: 42\n", want: Settings{LogLines: 42}},
		{name: "empty", text: "", want: Settings{}},
		{name: "unknown fields", text: "k9s:\n  somethingNew: 3\n  ui:\n    future: [1]\n", want: Settings{}},
		{name: "wrong type", text: "k9s:\n  ui:\n    enableMouse: yes please\n", problem: "line 3: k9s.ui.enableMouse: want true or false, not string"},
		{name: "number as word", text: "k9s:\n  logger:\n    tail: 100\n    buffer: lots\n", problem: "line 4: k9s.logger.buffer: want a number, not string"},
		{name: "out of range", text: "k9s:\n  logger:\n    buffer: 0\n", problem: "k9s.logger.buffer: 0 is not between 1 and 5000"},
		{name: "broken YAML", text: "k9s:\n  readOnly: true\n   ui: [\n", problem: "line 3: mapping values are not allowed in this context"},
		{name: "skin with a folder", text: "k9s:\n  ui:\n    skin: ../x\n", problem: `k9s.ui.skin: "../x" is not a skin's name (skins/NAME.yaml)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "config.yaml", tt.text)
			s, f, err := LoadSettings(Dirs{KScope: dir})
			if tt.problem != "" {
				if err == nil || err.Error() != filepath.Join(dir, "config.yaml")+": "+tt.problem {
					t.Fatalf("error %v, want %s", err, tt.problem)
				}
				return
			}
			if err != nil || f.From != "kscope" || !reflect.DeepEqual(s, tt.want) {
				t.Fatalf("got %+v %+v %v, want %+v", s, f, err, tt.want)
			}
		})
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
	want := ContextSettings{ReadOnly: ptr(true), Skin: "red", Namespace: "shop", View: "pods"}
	if err != nil || f.From != "k9s" || !reflect.DeepEqual(s, want) {
		t.Fatalf("got %+v %+v %v, want %+v", s, f, err, want)
	}
	if s, f, err := LoadContextSettings(d, "other", "ctx"); err != nil || f.From != "" || !reflect.DeepEqual(s, ContextSettings{}) ||
		f.Path != filepath.Join(d.KScope, "clusters", "other", "ctx", "config.yaml") {
		t.Fatalf("none: %+v %+v %v", s, f, err)
	}
	write(t, filepath.Join(d.KScope, "clusters", "other", "ctx"), "config.yaml", "k9s:\n  readOnly: [x]\n")
	if _, _, err := LoadContextSettings(d, "other", "ctx"); err == nil || !strings.HasSuffix(err.Error(), "line 2: k9s.readOnly: want true or false, not array") {
		t.Fatalf("broken: %v", err)
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
