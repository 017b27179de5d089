//go:build unix

package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/config"
)

// TestBackgroundPluginStopsOnQuit: quitting kills a background plugin and what it started, and waits for
// them: once Run has returned, neither is alive.
func TestBackgroundPluginStopsOnQuit(t *testing.T) {
	dir := t.TempDir()
	plugins := []config.Plugin{{Name: "sleeper", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Args: []string{"-c", "sleep 300 & echo $! > " + dir + "/child; echo $$ > " + dir + "/pid; wait"}}}
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Plugins = plugins })
	h.press(tcell.KeyRune, 'K')
	pids := map[string]int{}
	h.until("the plugin's pids", func() bool {
		for _, f := range []string{"pid", "child"} {
			data, _ := os.ReadFile(filepath.Join(dir, f))
			n, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil {
				return false
			}
			pids[f] = n
		}
		return true
	})
	h.app.Stop()
	if err := <-h.done; err != nil {
		t.Fatal(err)
	}
	h.done <- nil // (for the harness's cleanup)
	if alive(t, pids["pid"]) {
		t.Errorf("the plugin (pid %d) outlived kscope", pids["pid"])
	}
	deadline := time.Now().Add(5 * time.Second) // the child was killed; init reaps it when it gets to it
	for alive(t, pids["child"]) {
		if time.Now().After(deadline) {
			t.Fatalf("what the plugin started (pid %d) outlived kscope", pids["child"])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alive tells whether process pid runs (a zombie does not): kill(pid, 0) says whether it exists, its /proc
// stat whether it is a zombie; without a /proc to tell, t fails rather than counting it gone.
func alive(t *testing.T, pid int) bool {
	t.Helper()
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		if _, self := os.Stat("/proc/self/stat"); self != nil {
			t.Fatalf("no /proc here: cannot tell whether process %d has exited", pid)
		}
		return false // it exited between the two looks
	}
	_, rest, _ := strings.Cut(string(data), ") ")
	return !strings.HasPrefix(rest, "Z") && !strings.HasPrefix(rest, "X")
}
