package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"kscope/config"
	"kscope/kube"
)

// TestLastViewAtStart: kscope starts on the resource and namespace the state file remembers for its context
// (over the context file's and the kubeconfig's namespace, and the context file's view); -n or -A wins for
// the namespace; an unreadable state file is one line and changes nothing; what rememberLastView writes is
// what the next start reads.
func TestLastViewAtStart(t *testing.T) {
	root := t.TempDir()
	kubeconfig := filepath.Join(root, "kubeconfig")
	writeFile(t, kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: c1, user: u}\n- name: dev\n  context: {cluster: c1, user: u, namespace: team}\n")
	dirs := config.Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "k9sdata")}
	writeFile(t, filepath.Join(dirs.K9sData, "clusters", "c1", "prod", "config.yaml"), "k9s:\n  namespace:\n    active: shop\n  view:\n    active: apps/v1/deployments\n")
	for _, l := range [][3]string{{"prod", "statefulsets.apps", "data"}, {"dev", "pods", ""}} {
		if line := rememberLastView(dirs, l[0], l[1], l[2], nil); line != "" {
			t.Fatal(line)
		}
	}
	tests := []struct {
		name, context, ns string
		all               bool
		state             string // the state file's text, "" as remembered above
		wantView, wantNS  string
		wantAll           bool
		wantProblem       bool
	}{
		{name: "where prod was left", context: "prod", wantView: "statefulsets.apps", wantNS: "data"},
		{name: "-n wins for the namespace", context: "prod", ns: "web", wantView: "statefulsets.apps", wantNS: "web"},
		{name: "-A wins for the namespace", context: "prod", all: true, wantView: "statefulsets.apps", wantAll: true},
		{name: "dev was left in every namespace, over the kubeconfig's", context: "dev", wantView: "pods", wantAll: true},
		{name: "an unreadable state file: the files' view", context: "prod", state: "contexts: [\n", wantView: "deployments.apps", wantNS: "shop", wantProblem: true},
		{name: "a namespace that is not a name", context: "prod", state: "contexts:\n  prod: {resource: pods, namespace: 'a b'}\n", wantView: "pods", wantNS: "shop", wantProblem: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := dirs
			if tt.state != "" {
				d.KScope = t.TempDir()
				writeFile(t, filepath.Join(d.KScope, config.StateFileName), tt.state)
			}
			flags := kube.NewConfigFlags()
			flags.KubeConfig, flags.Context, flags.Namespace = &kubeconfig, &tt.context, &tt.ns
			o := &tuiOptions{flags: flags, logLines: 5000, allNamespaces: tt.all, changed: func(string) bool { return false }}
			problems := o.applySettings(d)
			if got := len(problems) == 1 && strings.Contains(problems[0], "state"); got != tt.wantProblem || (!tt.wantProblem && len(problems) > 0) {
				t.Errorf("problems %q, want a state problem: %v", problems, tt.wantProblem)
			}
			if o.files.startView != tt.wantView || *o.flags.Namespace != tt.wantNS || o.allNamespaces != tt.wantAll {
				t.Errorf("view %q ns %q all %v; want %q %q %v", o.files.startView, *o.flags.Namespace, o.allNamespaces,
					tt.wantView, tt.wantNS, tt.wantAll)
			}
		})
	}
	if err := os.Chmod(dirs.KScope, 0o500); err == nil && os.Getuid() != 0 {
		t.Cleanup(func() { os.Chmod(dirs.KScope, 0o700) })
		if line := rememberLastView(dirs, "prod", "pods", "web", nil); !strings.HasPrefix(line, "kscope: could not remember") {
			t.Errorf("a folder kscope cannot write: %q, want one line", line)
		}
	}
}

// TestFavoritesAtStart: the favourite namespaces the state file keeps reach the UI for every context; k9s's
// context file gives them for a context the state file has none for; a bad name is one line and left out;
// what rememberLastView writes is what the next start reads.
func TestFavoritesAtStart(t *testing.T) {
	root := t.TempDir()
	kubeconfig := filepath.Join(root, "kubeconfig")
	writeFile(t, kubeconfig, "apiVersion: v1\nkind: Config\ncurrent-context: prod\ncontexts:\n- name: prod\n  context: {cluster: c1, user: u}\n- name: dev\n  context: {cluster: c1, user: u}\n")
	dirs := config.Dirs{KScope: filepath.Join(root, "kscope"), K9s: filepath.Join(root, "k9s"), K9sData: filepath.Join(root, "k9sdata")}
	writeFile(t, filepath.Join(dirs.K9sData, "clusters", "c1", "dev", "config.yaml"), "k9s:\n  namespace:\n    favorites: [team, default]\n")
	favs := map[string][]string{"prod": {"shop", "web"}}
	if line := rememberLastView(dirs, "prod", "pods", "shop", favs); line != "" {
		t.Fatal(line)
	}
	for _, tt := range []struct {
		context string
		state   string
		want    map[string][]string
		problem bool
	}{
		{context: "prod", want: map[string][]string{"prod": {"shop", "web"}}},
		{context: "dev", want: map[string][]string{"prod": {"shop", "web"}, "dev": {"team", "default"}}},
		{context: "prod", state: "contexts:\n  prod: {favorites: [shop, 'No Name']}\n", want: map[string][]string{"prod": {"shop"}}, problem: true},
	} {
		t.Run(tt.context+tt.state, func(t *testing.T) {
			d := dirs
			if tt.state != "" {
				d.KScope = t.TempDir()
				writeFile(t, filepath.Join(d.KScope, config.StateFileName), tt.state)
			}
			flags := kube.NewConfigFlags()
			ns := ""
			flags.KubeConfig, flags.Context, flags.Namespace = &kubeconfig, &tt.context, &ns
			o := &tuiOptions{flags: flags, logLines: 5000, changed: func(string) bool { return false }}
			problems := o.applySettings(d)
			if got := len(problems) == 1 && strings.Contains(problems[0], "favourite namespace"); got != tt.problem || (!tt.problem && len(problems) > 0) {
				t.Errorf("problems %q, want a favourite's: %v", problems, tt.problem)
			}
			if !reflect.DeepEqual(o.files.favorites, tt.want) {
				t.Errorf("favourites %v, want %v", o.files.favorites, tt.want)
			}
		})
	}
}
