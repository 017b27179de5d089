package pluginvars

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestSubstitute(t *testing.T) {
	env := map[string]string{"NAME": "web-1", "NAMESPACE": "shop", "COL-STATUS": "Running", "COL-%CPU/R": "12",
		"COL-LABELS": "app=web,tier=fe", "COL-IMAGE": "docker.io/nginx@sha256:ab12", "COL-READY": "1/1"}
	for in, want := range map[string]string{
		"$NAME":                  "web-1",
		"$NAMESPACE/$NAME":       "shop/web-1",
		"${NAME}":                "web-1",
		"$COL-STATUS":            "Running",
		"${COL-%CPU/R}":          "12",
		"$name":                  "web-1",
		"$UNKNOWN stays":         "$UNKNOWN stays",
		"${UNKNOWN} stays":       "${UNKNOWN} stays",
		"pod-$NAME-logs":         "pod-web-1-logs",
		"no variables":           "no variables",
		"$NAME.$NAMESPACE.local": "web-1.shop.local",
		"-l $COL-LABELS":         "-l app=web,tier=fe",
		"echo '$COL-IMAGE'":      "echo 'docker.io/nginx@sha256:ab12'",
		"$COL-READY":             "1/1",
		"$(printenv NAME)":       "$(printenv NAME)",
	} {
		if got, err := Substitute(in, env); got != want || err != nil {
			t.Errorf("Substitute(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestSubstituteRefusesShellText: a value a shell could read as code is not substituted: the error names
// the variable and the character; the user's own values (inputs, the kubeconfig path) are substituted as
// typed.
func TestSubstituteRefusesShellText(t *testing.T) {
	tests := []struct {
		name, value, arg, want string
	}{
		{"NAME", "x'; touch p; echo '", "echo '$NAME' > f", `$NAME holds '\'', which a shell could read as code`},
		{"COL-MESSAGE", "Back-off $(touch p)", `echo "$COL-MESSAGE"`, `$COL-MESSAGE holds ' '`},
		{"NAME", "`id`", "$NAME", "$NAME holds '`'"},
		{"NAME", "--all", "delete $NAME", "$NAME holds '-'"},
		{"NAME", "=ls", "$NAME", "$NAME holds '='"},
		{"NAME", "a*", "$NAME", "$NAME holds '*'"},
		{"NAME", "ü", "$NAME", "$NAME holds 'ü'"},
		{"NAME", "a\nb", "$NAME-x", `$NAME holds '\n'`},
		{"COL-AGE", "<unknown>", "${COL-AGE}", "$COL-AGE holds '<'"},
		{"FILTER", "a|b", "$FILTER", "$FILTER holds '|'"},
	}
	for _, tt := range tests {
		got, err := Substitute(tt.arg, map[string]string{tt.name: tt.value})
		var unsafe UnsafeValueError
		if !errors.As(err, &unsafe) || !strings.Contains(err.Error(), tt.want) || got != "" {
			t.Errorf("%s=%q in %q: %q, %v; want the refusal %q", tt.name, tt.value, tt.arg, got, err, tt.want)
		}
	}
	own := map[string]string{"INPUT_MESSAGE": "hello world", "KUBECONFIG": "/home/a b/config"}
	if got, err := Substitute("$INPUT_MESSAGE $KUBECONFIG", own); err != nil || got != "hello world /home/a b/config" {
		t.Errorf("the user's own values: %q, %v", got, err)
	}
}

// pluginTemplates are the forms plugins.yaml files use, run by a shell: single quotes (k9s's common
// `bash -c "kubectl … '$NAME'"`), double quotes, bare words, braces, a suffix.
var pluginTemplates = []string{
	`printf '%s\n' '$NAME'`,
	`printf '%s\n' "$COL-MESSAGE"`,
	`printf '%s\n' $NAME`,
	`printf '%s\n' ${COL-MESSAGE}`,
	`printf '%s\n' x$NAME-y`,
}

// dnsName is a DNS-1123 subdomain, what most kinds' names are.
var dnsName = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// FuzzPluginSubstitute: whatever a name (RBAC names allow anything but '/' and '%') or a cell holds, a
// substituted argument given to sh and bash prints the value as text and runs nothing else, or the run is
// refused naming the variable; a DNS name is always substituted unchanged.
func FuzzPluginSubstitute(f *testing.F) {
	for _, s := range []string{"web-1", "x'; touch p; echo '", "$(touch p)", "a b", "Init:0/1"} {
		f.Add(s)
	}
	shells := []string{}
	for _, sh := range []string{"sh", "bash"} {
		if p, err := exec.LookPath(sh); err == nil {
			shells = append(shells, p)
		}
	}
	if len(shells) == 0 { // the check that a substituted value runs nothing needs a shell to run it in
		f.Fatal("neither sh nor bash is installed: the runs-nothing check cannot run")
	}
	f.Fuzz(func(t *testing.T, value string) {
		env := map[string]string{"NAME": value, "COL-MESSAGE": value}
		for _, tmpl := range pluginTemplates {
			arg, err := Substitute(tmpl, env)
			if err != nil {
				var unsafe UnsafeValueError
				if !errors.As(err, &unsafe) || (unsafe.name != "NAME" && unsafe.name != "COL-MESSAGE") {
					t.Fatalf("%q in %q: %v", value, tmpl, err)
				}
				if dnsName.MatchString(value) && len(value) <= 253 {
					t.Fatalf("the DNS name %q was refused: %v", value, err)
				}
				continue
			}
			if strings.ContainsRune(value, 0) {
				t.Fatalf("%q substituted", value)
			}
			want := value
			if strings.Contains(tmpl, "x$NAME-y") {
				want = "x" + value + "-y"
			}
			for _, sh := range shells {
				dir := t.TempDir()
				cmd := exec.Command(sh, "-c", arg)
				cmd.Dir = dir
				out, err := cmd.Output()
				if err != nil || string(out) != want+"\n" {
					t.Fatalf("%s -c %q printed %q (%v), want %q", sh, arg, out, err, want)
				}
				if left, _ := os.ReadDir(dir); len(left) != 0 {
					t.Fatalf("%s -c %q made %s", sh, arg, filepath.Join(dir, left[0].Name()))
				}
			}
		}
	})
}
