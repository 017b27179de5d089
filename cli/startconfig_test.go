package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"kscope/config"
	"kscope/kube"
)

// TestApplySettingsPrecedence: a flag given wins over the files; the context's file wins over config.yaml;
// the context's namespace applies only when neither the command line nor the kubeconfig names one.
func TestApplySettingsPrecedence(t *testing.T) {
	root := t.TempDir()
	kubeconfig := filepath.Join(root, "kubeconfig")
	writeFile(t, kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: c1, user: u}\n- name: dev\n  context: {cluster: c1, user: u, namespace: team}\n")
	dirs := config.Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "k9sdata")}
	writeFile(t, filepath.Join(dirs.K9s, "config.yaml"), "k9s:\n  readOnly: false\n  screenDumpDir: /dumps\n  ui:\n    enableMouse: true\n  logger:\n    buffer: 300\n    tail: 50\n")
	writeFile(t, filepath.Join(dirs.K9sData, "clusters", "c1", "prod", "config.yaml"), "k9s:\n  readOnly: true\n  namespace:\n    active: shop\n  view:\n    active: apps/v1/deployments\n")
	writeFile(t, filepath.Join(dirs.K9sData, "clusters", "c1", "dev", "config.yaml"), "k9s:\n  namespace:\n    active: shop\n")
	tests := []struct {
		name     string
		context  string
		given    map[string]bool // flags given on the command line (their values: the zero ones)
		ns       string          // -n
		wantRO   bool
		wantNS   string
		wantView string
		mouse    bool
		logLines int
		saveDir  string
	}{
		{name: "files only", context: "prod", wantRO: true, wantNS: "shop", wantView: "deployments.apps", mouse: true, logLines: 300, saveDir: "/dumps"},
		{name: "flags win", context: "prod", given: map[string]bool{"readonly": true, "mouse": true, "log-lines": true, "save-dir": true},
			ns: "web", wantNS: "web", wantView: "deployments.apps", logLines: 5000},
		{name: "kubeconfig's namespace wins over the context file's", context: "dev", wantNS: "", mouse: true, logLines: 300, saveDir: "/dumps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags := kube.NewConfigFlags()
			flags.KubeConfig, flags.Context, flags.Namespace = &kubeconfig, &tt.context, &tt.ns
			o := &tuiOptions{flags: flags, logLines: 5000, changed: func(n string) bool { return tt.given[n] }}
			if problems := o.applySettings(dirs); len(problems) > 0 {
				t.Fatalf("problems: %v", problems)
			}
			if o.readOnly != tt.wantRO || *o.flags.Namespace != tt.wantNS || o.files.startView != tt.wantView ||
				o.mouse != tt.mouse || o.logLines != tt.logLines || o.saveDir != tt.saveDir {
				t.Fatalf("readOnly %v ns %q view %q mouse %v logLines %d saveDir %q", o.readOnly, *o.flags.Namespace,
					o.files.startView, o.mouse, o.logLines, o.saveDir)
			}
			if got, _, err := o.flags.ToRawKubeConfigLoader().Namespace(); tt.wantNS != "" && (err != nil || got != tt.wantNS) {
				t.Errorf("the connection's namespace %q (%v), want %q", got, err, tt.wantNS)
			}
			if o.files.logTail != 50 {
				t.Errorf("log tail %d, want 50", o.files.logTail)
			}
		})
	}
}

// TestReadOnlyFailsClosed: readOnly is read next to values kscope cannot use; a file that exists but cannot
// be parsed, or whose readOnly is unusable, starts kscope read-only with one line saying why, whatever the
// other file says; only a flag given wins. `:ctx` refuses to switch a writable kscope to a context the files
// make read-only (its own file, else config.yaml's readOnly), as at start.
func TestReadOnlyFailsClosed(t *testing.T) {
	const unusable = "k9s:\n  readOnly: true\n  refreshRate: fast\n  ui:\n    skin: my/skin\n  logger:\n    buffer: 10000\n"
	tests := []struct {
		name            string
		global, context string // the files' text ("": no file)
		flag            *bool  // --readonly given
		wantRO          bool
		wantLines       int    // problem lines
		wantWhy         string // in a line
		switchRefused   bool   // :ctx prod from a writable kscope
	}{
		{name: "readOnly next to unusable values", global: unusable, wantRO: true, wantLines: 3, wantWhy: "k9s.logger.buffer: 10000 is not between 1 and 5000; ignored", switchRefused: true},
		{name: "context's readOnly next to an unusable skin", context: "k9s:\n  readOnly: true\n  skin: my/skin\n", wantRO: true, wantLines: 1, wantWhy: "k9s.skin", switchRefused: true},
		{name: "config.yaml cannot be parsed", global: "k9s:\n  readOnly: false\n   ui: [\n", wantRO: true, wantLines: 1, wantWhy: "kscope starts read-only", switchRefused: true},
		{name: "a broken config.yaml wins over the context's readOnly false", global: "k9s: [\n", context: "k9s:\n  readOnly: false\n",
			wantRO: true, wantLines: 1, wantWhy: "cannot be parsed", switchRefused: true},
		{name: "a broken context file wins over config.yaml's readOnly false", global: "k9s:\n  readOnly: false\n", context: "k9s:\n  readOnly: false\n view: x\n",
			wantRO: true, wantLines: 1, wantWhy: "cannot be parsed", switchRefused: true},
		{name: "readOnly not a boolean", global: "k9s:\n  readOnly: sure\n", wantRO: true, wantLines: 1, wantWhy: "k9s.readOnly: want true or false, not string; kscope starts read-only", switchRefused: true},
		{name: "config.yaml's readOnly, no context file", global: "k9s:\n  readOnly: true\n", wantRO: true, switchRefused: true},
		{name: "the context's readOnly false wins over config.yaml's", global: "k9s:\n  readOnly: true\n", context: "k9s:\n  readOnly: false\n"},
		{name: "a flag given wins", global: "k9s: [\n", flag: ptrTo(false), wantLines: 1, wantWhy: "cannot be parsed"},
		{name: "a flag given: config.yaml's readOnly does not apply to :ctx, the context's does", global: "k9s:\n  readOnly: true\n",
			context: "k9s:\n  readOnly: true\n", flag: ptrTo(false), switchRefused: true},
		{name: "a flag given, config.yaml's readOnly", global: "k9s:\n  readOnly: true\n", flag: ptrTo(false)},
		{name: "nothing asks", global: "k9s:\n  readOnly: false\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			kubeconfig := filepath.Join(root, "kubeconfig")
			writeFile(t, kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: c1, user: u}\n")
			dirs := config.Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "k9sdata")}
			if tt.global != "" {
				writeFile(t, filepath.Join(dirs.KScope, "config.yaml"), tt.global)
			}
			if tt.context != "" {
				writeFile(t, filepath.Join(dirs.K9sData, "clusters", "c1", "prod", "config.yaml"), tt.context)
			}
			flags := kube.NewConfigFlags()
			prod := "prod"
			flags.KubeConfig, flags.Context = &kubeconfig, &prod
			o := &tuiOptions{flags: flags, logLines: 5000, changed: func(n string) bool { return n == "readonly" && tt.flag != nil }}
			if tt.flag != nil {
				o.readOnly = *tt.flag
			}
			problems := o.applySettings(dirs)
			if o.readOnly != tt.wantRO || len(problems) != tt.wantLines || (tt.wantWhy != "" && !strings.Contains(strings.Join(problems, "\n"), tt.wantWhy)) {
				t.Fatalf("read-only %v with %d lines %q, want %v with %d lines naming %q", o.readOnly, len(problems), problems, tt.wantRO, tt.wantLines, tt.wantWhy)
			}
			err := refuseReadOnlyContext(dirs, flags, false, tt.flag != nil)
			if (err != nil) != tt.switchRefused {
				t.Errorf("switching a writable kscope to prod: %v, want refused %v", err, tt.switchRefused)
			}
			if err := refuseReadOnlyContext(dirs, flags, true, tt.flag != nil); err != nil {
				t.Errorf("a read-only kscope may switch anywhere: %v", err)
			}
		})
	}
}

func ptrTo[T any](v T) *T { return &v }
