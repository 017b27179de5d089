package main

import (
	"path/filepath"
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
	flags := kube.NewConfigFlags()
	prod := "prod"
	flags.KubeConfig, flags.Context = &kubeconfig, &prod
	if err := refuseReadOnlyContext(dirs, flags, false); err == nil {
		t.Error("switching a writable kscope to a read-only context was not refused")
	}
	if err := refuseReadOnlyContext(dirs, flags, true); err != nil {
		t.Errorf("a read-only kscope may switch anywhere: %v", err)
	}
}
