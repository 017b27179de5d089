package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPluginsFolderAndContext: plugins.yaml, then the plugins/ folders' files in k9s's three shapes (one
// plugin named by its file, a plugins: document, plugins by name), a later one replacing a plugin of the
// same name; a broken folder file is one problem and the others are read; the context's file is read
// from k9s's clusters/CLUSTER/CONTEXT/ with ':' and '/' made '-'.
func TestPluginsFolderAndContext(t *testing.T) {
	root := t.TempDir()
	d := Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "k9s")}
	write(t, d.K9s, "plugins.yaml", "plugins:\n  a:\n    shortCut: Shift-A\n    scopes: [po]\n    command: echo\n  b:\n    shortCut: b\n    scopes: [all]\n    command: old\n")
	write(t, filepath.Join(d.K9s, "plugins"), "single.yaml", "shortCut: Ctrl-S\nscopes: [po]\ncommand: one\ninputs:\n  - name: count\n    type: number\n    default: 3\n  - name: enabled\n    type: bool\n    default: true\n")
	write(t, filepath.Join(d.K9s, "plugins", "sub"), "doc.yml", "plugins:\n  b:\n    shortCut: b\n    scopes: [all]\n    command: new\n    override: true\n    confirm: false\n")
	write(t, filepath.Join(d.KScope, "plugins"), "multi.yaml", "c:\n  shortCut: c\n  scopes: [po]\n  command: cc\n")
	write(t, filepath.Join(d.KScope, "plugins"), "broken.yaml", "d:\n  shortCut: d\n  command: dd\n")
	write(t, filepath.Join(d.KScope, "plugins"), "notes.txt", "not yaml: [")
	plugins, f, err := LoadPlugins(d)
	if f.From != "k9s" {
		t.Errorf("file %+v", f)
	}
	if err == nil || !strings.Contains(err.Error(), `broken.yaml: plugin "d" needs a shortCut, a command and scopes`) || len(err.(Problems)) != 1 {
		t.Errorf("problems: %v", err)
	}
	var got []string
	for _, p := range plugins {
		got = append(got, p.Name+":"+p.Command)
	}
	if strings.Join(got, " ") != "a:echo b:new c:cc single:one" {
		t.Fatalf("plugins %v", got)
	}
	if b := plugins[1]; !b.Override || b.Confirm {
		t.Errorf("b: %+v", b)
	}
	if s := plugins[3]; !s.Confirm || len(s.Inputs) != 2 || s.Inputs[0].Default != "3" || s.Inputs[0].Name != "count" || s.Inputs[1].Default != "true" {
		t.Errorf("single: inputs confirm by default, %+v", s)
	}

	write(t, filepath.Join(d.K9sData, "clusters", "arn-aws-eks-x-cluster-c", "ctx"), "plugins.yaml", "plugins:\n  a:\n    shortCut: Shift-B\n    scopes: [po]\n    command: ctx\n")
	ctx, _, err := LoadContextPlugins(d, "arn:aws:eks:x:cluster/c", "ctx")
	if err != nil || len(ctx) != 1 || ctx[0].Command != "ctx" {
		t.Fatalf("context plugins %+v, %v", ctx, err)
	}
}

// TestPluginInputsChecked: inputs are checked as k9s 0.51 checks them; a bad one makes the file a problem.
func TestPluginInputsChecked(t *testing.T) {
	for input, want := range map[string]string{
		"{name: a, type: text}":                               `type "text" is not string, number, bool or dropdown`,
		"{name: a, type: number, default: x}":                 `default "x" is not a number`,
		"{name: a, type: bool, default: maybe}":               `default "maybe" is not true or false`,
		"{name: a, type: dropdown, options: [x], default: z}": `default "z" is not one of its options`,
		"{name: a, type: dropdown}":                           "a dropdown needs options",
		"{type: string}":                                      "an input needs a name",
	} {
		dir := t.TempDir()
		write(t, dir, "plugins.yaml", "plugins:\n  p:\n    shortCut: p\n    scopes: [po]\n    command: x\n    inputs: ["+input+"]\n")
		if _, _, err := LoadPlugins(Dirs{KScope: dir}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", input, err, want)
		}
	}
}
