package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

func TestPluginRunsWithTheRowsVariables(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{
		{Name: "note", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
			Args: []string{"-c", "echo \"$0 $1 $2 $3\" > " + out, "$NAMESPACE", "$NAME", "$COL-STATUS", "$CONTEXT"}},
		{Name: "env", ShortCut: "Shift-X", Scopes: []string{"po"}, Command: "sh", Background: true,
			Args: []string{"-c", `printf '%s|' "$NAME" "$NAMESPACE" "$COL_STATUS" "$RESOURCE_NAME" "$FILTER" > ` + out + ".env"}},
		{Name: "wipe", ShortCut: "Shift-W", Scopes: []string{"all"}, Command: "sh", Dangerous: true, Background: true,
			Args: []string{"-c", "echo wiped > " + out + ".wipe"}},
		{Name: "deploys-only", ShortCut: "Shift-Q", Scopes: []string{"deployments"}, Command: "true"},
	}
	h := start(t, 100, 70, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins; o.ReadOnly = true })
	h.press(tcell.KeyRune, '/')
	h.typeText("fghij\n")
	h.press(tcell.KeyRune, 'K')
	h.eventually("plugin note done")
	data, _ := os.ReadFile(out)
	if got := string(data); got != "shop web-7d9f-fghij Running admin\n" {
		t.Fatalf("the plugin wrote %q", got)
	}
	h.press(tcell.KeyRune, 'X')
	h.eventually("plugin env done")
	if data, _ := os.ReadFile(out + ".env"); string(data) != "web-7d9f-fghij|shop|Running|pods|fghij|" {
		t.Fatalf("the plugin's environment: %q", data)
	}
	h.press(tcell.KeyRune, 'W')
	h.eventually("read-only mode: refusing plugin wipe (it is marked dangerous)")
	if _, err := os.Stat(out + ".wipe"); err == nil {
		t.Fatalf("the dangerous plugin ran in read-only mode")
	}
	h.press(tcell.KeyRune, '?')
	h.eventually("plugin note")
	h.lacks("deploys-only")
}

// TestDangerousPluginAsksFirst: Cancel (focused) runs nothing; Run runs the plugin once. The plugin appends
// a line: had Cancel run it, the file would hold two once every run has ended.
func TestDangerousPluginAsksFirst(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{{Name: "wipe", ShortCut: "Shift-W", Scopes: []string{"Pod"}, Command: "sh", Dangerous: true,
		Background: true, Args: []string{"-c", "echo $0 >> " + out, "$NAME"}}}
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, '/')
	h.typeText("fghij\n")
	h.press(tcell.KeyRune, 'W')
	h.eventually("Run plugin wipe on pods web-7d9f-")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	h.until("the dialog closed", func() bool { return h.app.modal == nil })
	h.quietly(func() {
		if started, _ := h.app.plugins.Runs(); started != 0 {
			t.Errorf("Cancel started the plugin")
		}
	})
	h.press(tcell.KeyRune, 'W')
	h.eventually("Run plugin wipe on pods web-7d9f-")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.until("every run ended", func() bool { started, running := h.app.plugins.Runs(); return started > 0 && running == 0 })
	h.eventually("plugin wipe done")
	if data, _ := os.ReadFile(out); string(data) != "web-7d9f-fghij\n" {
		t.Fatalf("wrote %q (Cancel ran it too?)", data)
	}
}

// TestPluginKeysOverrideAndConflicts: a plugin with override takes the view's key; one without loses it to
// the view, said on the prompt line and in the help, and its key runs the view's binding.
func TestPluginKeysOverrideAndConflicts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{
		{Name: "my-yaml", ShortCut: "y", Override: true, Scopes: []string{"pods"}, Command: "sh", Background: true,
			Args: []string{"-c", "echo y > " + out}},
		{Name: "my-describe", ShortCut: "d", Scopes: []string{"pods"}, Command: "sh", Background: true,
			Args: []string{"-c", "echo d > " + out + ".d"}},
	}
	hotkeys := []config.HotKey{{Name: "deploys", ShortCut: "Shift-D", Command: "deploy"},
		{Name: "over", ShortCut: "Shift-K", Command: "pods"}}
	plugins = append(plugins, config.Plugin{Name: "k", ShortCut: "Shift-K", Scopes: []string{"pods"}, Command: "true"})
	h := start(t, 160, 80, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins; o.HotKeys = hotkeys })
	h.press(tcell.KeyRune, 'j')
	h.eventually("hotkey over on shift-k not bound in pods: shift-k is plugin k (override: true would take it)")
	h.press(tcell.KeyRune, 'y')
	h.eventually("plugin my-yaml done")
	h.ui(func() {
		if s, ok := h.app.top().(*stubObjectScreen); ok && !s.describe {
			t.Errorf("y opened the YAML view: the plugin's override was ignored")
		}
	})
	h.press(tcell.KeyRune, 'd')
	h.until("d opened describe", func() bool { s, ok := h.app.top().(*stubObjectScreen); return ok && s.describe })
	if _, err := os.Stat(out + ".d"); err == nil {
		t.Fatalf("the plugin without override ran on d")
	}
	h.press(tcell.KeyEscape, 0)
	h.press(tcell.KeyRune, '?')
	for _, s := range []string{"not bound", "plugin my-describe on d not bound in pods", "overridden",
		"plugin my-yaml takes y from yaml in pods", "hotkey over on shift-k not bound in pods"} {
		h.eventually(s)
	}
}

// TestPluginInputs: inputs are asked for, their values substituted as typed ($INPUT_NAME) and exported.
func TestPluginInputs(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{{Name: "scale", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Confirm: true, Args: []string{"-c", `echo "$INPUT_COUNT $INPUT_MESSAGE $(printenv INPUT_ENV)" > ` + out},
		Inputs: []config.PluginInput{{Name: "count", Type: "number", Required: true, Default: "3"},
			{Name: "message", Label: "Say", Type: "string"},
			{Name: "env", Type: "dropdown", Options: []string{"dev", "prod"}, Default: "prod"}}}}
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, '/')
	h.typeText("fghij\n")
	h.press(tcell.KeyRune, 'K')
	h.eventually("plugin scale: count (a number) *:")
	h.replacePrompt("x")
	h.press(tcell.KeyEnter, 0)
	h.eventually(`plugin scale not run: count: "x" is not a number`)
	h.press(tcell.KeyRune, 'K')
	h.press(tcell.KeyEnter, 0) // the default, 3
	h.eventually("plugin scale: Say:")
	h.typeText("hello world\n")
	h.eventually("plugin scale: env")
	h.press(tcell.KeyEnter, 0) // prod
	h.eventually("Run plugin scale on pods")
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("plugin scale done")
	if data, _ := os.ReadFile(out); string(data) != "3 hello world prod\n" {
		t.Fatalf("wrote %q", data)
	}
}

// TestContextPlugins: the context's plugins file adds plugins and replaces those of the same name.
func TestContextPlugins(t *testing.T) {
	var asked []string
	h := start(t, 160, 70, func(o *Options) {
		o.Resource = "pods"
		o.Plugins = []config.Plugin{{Name: "a", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "true", Description: "global a"}}
		o.ContextPlugins = func(cluster, context string) ([]config.Plugin, error) {
			asked = append(asked, cluster+"/"+context)
			return []config.Plugin{{Name: "a", ShortCut: "Shift-Y", Scopes: []string{"po"}, Command: "true", Description: "context a"},
				{Name: "b", ShortCut: "Shift-V", Scopes: []string{"po"}, Command: "true", Description: "context b"}}, nil
		}
	})
	h.press(tcell.KeyRune, '?')
	h.eventually("context a")
	h.eventually("context b")
	h.lacks("global a")
	if strings.Join(asked, ",") != "devcluster/admin" {
		t.Errorf("read for %q", asked)
	}
}

// TestBackgroundPluginOutputBounded: a plugin that writes megabytes keeps the last 64 KiB; its last line is
// shown, and that the output was cut.
func TestBackgroundPluginOutputBounded(t *testing.T) {
	plugins := []config.Plugin{{Name: "chatty", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Args: []string{"-c", "head -c 4000000 /dev/zero | tr '\\0' x; echo; echo the end"}}}
	h := start(t, 160, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, 'K')
	h.eventually("plugin chatty done: the end (output cut: kept the last 65536 of 4000009 bytes)")
}

// TestPluginEndNamesItsRefusedWrite: a write of a plugin that read-only mode refused during its run is
// named again when the plugin ends, so that its exit does not replace the refusal on the prompt line.
func TestPluginEndNamesItsRefusedWrite(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "go on")
	plugins := []config.Plugin{{Name: "remove", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Args: []string{"-c", `while [ ! -e "$0" ]; do sleep 0.01; done; exit 1`, gate}}}
	h := start(t, 160, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins; o.ReadOnly = true })
	h.app.ChildRefused("read-only mode: DELETE /api/v1/namespaces/a/configmaps/b refused before the run")
	h.eventually("configmaps/b refused before the run") // shown before the run starts, not over its line
	h.press(tcell.KeyRune, 'K')
	h.eventually("running sh")
	h.app.ChildRefused("read-only mode: DELETE /api/v1/namespaces/a/configmaps/c refused")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	end := "read-only mode: DELETE /api/v1/namespaces/a/configmaps/c refused; plugin remove: exit status 1"
	h.eventually(end)
	// The refusal's own notice, however late, does not replace the end line: once no notice is pending and
	// the UI goroutine has run what was queued, the end line is still there.
	deadline := time.Now().Add(uiWait)
	for pending := true; pending; {
		h.app.noticeMu.Lock()
		pending = len(h.app.notices) > 0
		h.app.noticeMu.Unlock()
		if pending && time.Now().After(deadline) {
			t.Fatalf("notices still pending after %v", uiWait)
		}
		time.Sleep(time.Millisecond)
	}
	h.quietly(func() {})
	h.contains(end)
}
