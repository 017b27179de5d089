package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

func TestSubstitute(t *testing.T) {
	env := map[string]string{"NAME": "web-1", "NAMESPACE": "shop", "COL-STATUS": "Running", "COL-%CPU/R": "12"}
	for in, want := range map[string]string{
		"$NAME":                  "web-1",
		"$NAMESPACE/$NAME":       "shop/web-1",
		"${NAME}":                "web-1",
		"$COL-STATUS":            "Running",
		"${COL-%CPU/R}":          "12",
		"$name":                  "web-1",
		"$UNKNOWN stays":         "$UNKNOWN stays",
		"pod-$NAME-logs":         "pod-web-1-logs",
		"no variables":           "no variables",
		"$NAME.$NAMESPACE.local": "web-1.shop.local",
	} {
		if got := substitute(in, env); got != want {
			t.Errorf("substitute(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPluginRunsWithTheRowsVariables(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{
		{Name: "note", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
			Args: []string{"-c", "echo \"$0 $1 $2 $3\" > " + out, "$NAMESPACE", "$NAME", "$COL-STATUS", "$CONTEXT"}},
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
	h.press(tcell.KeyRune, 'W')
	h.eventually("read-only mode: refusing plugin wipe (it is marked dangerous)")
	if _, err := os.Stat(out + ".wipe"); err == nil {
		t.Fatalf("the dangerous plugin ran in read-only mode")
	}
	h.press(tcell.KeyRune, '?')
	h.eventually("plugin note")
	h.lacks("deploys-only")
}

func TestDangerousPluginAsksFirst(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	plugins := []config.Plugin{{Name: "wipe", ShortCut: "Shift-W", Scopes: []string{"Pod"}, Command: "sh", Dangerous: true,
		Background: true, Args: []string{"-c", "echo $0 > " + out, "$NAME"}}}
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, '/')
	h.typeText("fghij\n")
	h.press(tcell.KeyRune, 'W')
	h.eventually("Run plugin wipe on pods web-7d9f-")
	h.press(tcell.KeyEnter, 0) // Cancel is focused
	h.sync()
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("ran although cancelled")
	}
	h.press(tcell.KeyRune, 'W')
	h.press(tcell.KeyTab, 0)
	h.press(tcell.KeyEnter, 0)
	h.eventually("plugin wipe done")
	if data, _ := os.ReadFile(out); string(data) != "web-7d9f-fghij\n" {
		t.Fatalf("wrote %q", data)
	}
}
