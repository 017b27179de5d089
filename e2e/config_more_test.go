//go:build e2e

package e2e

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// screenColors returns the pane with its escape codes (tmux capture-pane -e).
func (s *tmuxUI) screenColors() string {
	s.t.Helper()
	out, err := exec.Command("tmux", "capture-pane", "-e", "-p", "-t", s.name).Output()
	if err != nil {
		s.t.Fatalf("capture-pane -e: %v", err)
	}
	return string(out)
}

// skinRowColor is a skin's views.table.fgColor, as the SGR code a truecolor terminal gets.
const skinRowColor = "38;2;255;0;1"

// TestUIK9sConfigYAMLSkinKeys starts kscope with k9s's config.yaml (readOnly, logger buffer and tail, a skin),
// k9s's per-context file (the namespace and view to start in) and kscope's keys.yaml (describe on shift-d),
// none of it on the command line: kscope starts in the context's namespace and view, refuses a delete as
// read-only, draws the rows in the skin's color, keeps only the logger's buffer of log lines, and its help
// and keys follow the remap.
func TestUIK9sConfigYAMLSkinKeys(t *testing.T) {
	serial(t, "appends to the log of every pod's metrics container (devcluster log)")
	ns := testNamespace(t)
	logsPod(t, ns)
	home := t.TempDir()
	k9s := filepath.Join(home, "config", "k9s")
	writeFile(t, filepath.Join(k9s, "config.yaml"), `k9s:
  liveViewAutoRefresh: false
  refreshRate: 2
  maxConnRetry: 5
  readOnly: true
  ui:
    enableMouse: false
    headless: false
    skin: e2e
  logger:
    tail: 5
    buffer: 7
    sinceSeconds: -1
    textWrap: false
    showTime: false
  thresholds:
    cpu:
      critical: 90
`)
	writeFile(t, filepath.Join(k9s, "skins", "e2e.yaml"), "k9s:\n  views:\n    table:\n      fgColor: \"#ff0001\"\n      cursorFgColor: black\n"+
		"      cursorBgColor: \"#00ff02\"\n      header:\n        fgColor: \"#ff0003\"\n")
	writeFile(t, filepath.Join(home, "data", "k9s", "clusters", "devcluster", "admin", "config.yaml"),
		"k9s:\n  cluster: devcluster\n  namespace:\n    active: "+ns+"\n    favorites: [default]\n  view:\n    active: v1/pods\n")
	writeFile(t, filepath.Join(home, "config", "kscope", "keys.yaml"), "keys:\n  describe: Shift-D\n")
	environ := []string{"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"), "COLORTERM=truecolor"}
	s := startTmuxEnv(t, environ, env.kscope, "; sleep 600", "--context", "admin")
	s.waitFor("READ-ONLY", "pods("+ns+")[1]", "two")

	colors := s.screenColors()
	if line := lineWith(colors, "Running"); !strings.Contains(line, "48;2;0;255;2") { // the selected row
		t.Errorf("the cursor is not in the skin's color: %q", line)
	}
	if line := lineWith(colors, "READY"); !strings.Contains(line, "38;2;255;0;3") {
		t.Errorf("the table's header is not in the skin's color: %q", line)
	}
	s.keys("C-d")
	s.waitFor("read-only mode: refusing to delete pods " + ns + "/two")

	s.keys("?")
	scr := s.waitFor("help pods")
	// the describe binding's row (read-only mode's rows above it speak of describe too)
	var rows []string
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, " describe ") {
			rows = append(rows, l)
		}
	}
	if !slices.ContainsFunc(rows, func(l string) bool { return strings.Contains(l, "shift-d") }) {
		t.Errorf("the help's describe rows: %q, want one with shift-d", rows)
	}
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[1]")
	s.keys("D")
	s.waitFor("describe pods "+ns+"/two", "Containers:")
	s.keys("Escape")
	s.waitFor("pods(" + ns + ")[1]")

	s.keys("l")
	s.waitFor("which container?")
	s.keys("Enter")
	s.waitFor("logs pods "+ns+"/two metrics", "5 of 7 lines kept") // tail 5, buffer 7
	var markers []string
	for i := 0; i < 3; i++ {
		markers = append(markers, "kscope-buffer-"+strconv.Itoa(i)+"-"+randomSuffix())
		devcluster(t, "log", "metrics", markers[i])
	}
	scr = s.waitFor(append(markers, "7 of 7 lines kept, 1 older dropped")...)
	if n := len(regexp.MustCompile(`(?m)^║\S`).FindAllString(scr, -1)); n != 7 {
		t.Errorf("%d log lines on screen, want the buffer's 7:\n%s", n, scr)
	}
}

// TestUIConfigBrokenFiles: broken YAML in config.yaml, in the skin it names and in keys.yaml are one line
// each, naming the file and line; kscope starts with its defaults and works. A config.yaml that cannot be
// parsed at all starts kscope read-only (it may have said readOnly: true), and the line says so.
func TestUIConfigBrokenFiles(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	kubectl(t, "-n", ns, "create", "configmap", "kscope-broken-e2e", "--from-literal=a=b")
	for _, tc := range []struct {
		name, file, text, want string
		others                 map[string]string
		readOnly               bool
	}{
		{name: "config.yaml", file: "k9s/config.yaml", text: "k9s:\n  readOnly: true\n   ui: [\n",
			want: "k9s/config.yaml: cannot be parsed (line 3: ", readOnly: true},
		{name: "wrong type in config.yaml", file: "k9s/config.yaml", text: "k9s:\n  logger:\n    buffer: lots\n",
			want: "k9s/config.yaml: line 3: k9s.logger.buffer: want a number, not string"},
		{name: "skin", file: "k9s/skins/e2e.yaml", text: "k9s:\n  views:\n    table:\n      fgColor: \"#ff0001\"\n     x: [\n",
			want: "k9s/skins/e2e.yaml: line 4: ", others: map[string]string{"k9s/config.yaml": "k9s:\n  ui:\n    skin: e2e\n"}},
		{name: "keys.yaml", file: "kscope/keys.yaml", text: "keys:\n  describe: Shift-D\n yaml: [\n",
			want: "kscope/keys.yaml: line 2: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			writeFile(t, filepath.Join(home, tc.file), tc.text)
			for f, text := range tc.others {
				writeFile(t, filepath.Join(home, f), text)
			}
			environ := []string{"XDG_CONFIG_HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "COLORTERM=truecolor"}
			s := startTmuxEnv(t, environ, env.kscope, "; sleep 600", "-n", ns, "configmaps")
			scr := s.waitFor("config: "+filepath.Join(home, tc.want), "kscope-broken-e2e")
			if strings.Contains(scr, "READ-ONLY") != tc.readOnly {
				t.Errorf("read-only is %v, want %v:\n%s", !tc.readOnly, tc.readOnly, scr)
			}
			if line := lineWith(s.screenColors(), "kube-root-ca.crt"); strings.Contains(line, skinRowColor) {
				t.Errorf("the broken skin was applied: %q", line)
			}
			s.keys("y") // kscope works: the default keys, the YAML view
			s.waitFor("configmaps " + ns + "/kscope-broken-e2e")
		})
	}
}
