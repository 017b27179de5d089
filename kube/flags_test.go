package kube

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"kscope/kube/readonly"
)

func TestContextFlags(t *testing.T) {
	str := func(s string) *string { return &s }
	f := NewConfigFlags()
	*f.KubeConfig, *f.CacheDir, *f.Timeout = "/tmp/kubeconfig", "/tmp/cache", "5s"
	*f.Impersonate, *f.ImpersonateUID = "alice", "42"
	*f.ImpersonateGroup = []string{"devs"}
	*f.Insecure = true
	*f.Context, *f.Namespace, *f.ClusterName, *f.AuthInfoName = "old", "shop", "prod", "admin"
	*f.APIServer = "https://10.0.0.1"

	n := ContextFlags(f, "staging")
	tests := []struct {
		name      string
		got, want any
	}{
		{"context", n.Context, str("staging")},
		{"kubeconfig kept", n.KubeConfig, f.KubeConfig},
		{"cache dir kept", n.CacheDir, f.CacheDir},
		{"timeout kept", n.Timeout, f.Timeout},
		{"insecure dropped", *n.Insecure, false},
		{"impersonate kept", n.Impersonate, f.Impersonate},
		{"impersonate uid kept", n.ImpersonateUID, f.ImpersonateUID},
		{"impersonate group kept", n.ImpersonateGroup, f.ImpersonateGroup},
		{"namespace dropped", n.Namespace, str("")},
		{"cluster dropped", n.ClusterName, str("")},
		{"user dropped", n.AuthInfoName, str("")},
		{"server dropped", n.APIServer, str("")},
	}
	for _, tt := range tests {
		if !reflect.DeepEqual(tt.got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, deref(tt.got), deref(tt.want))
		}
	}
	if *f.Context != "old" {
		t.Errorf("ContextFlags modified f: context %q", *f.Context)
	}
}

// TestContextFlagsInsecureOnlyForStart: --insecure-skip-tls-verify given for the start context does not follow
// a switch to another context (or to any, when the start context cannot be told).
func TestContextFlagsInsecureOnlyForStart(t *testing.T) {
	tests := []struct {
		name     string
		insecure bool
		context  string // --context; "" the kubeconfig's current one (dev)
		badPath  bool   // a kubeconfig that cannot be read
		moved    bool   // the kubeconfig's current context becomes "other" after the start
		to       string
		want     bool
	}{
		{"current context, to another", true, "", false, false, "other", false},
		{"current context, back to it", true, "", false, false, "dev", true},
		{"--context, to another", true, "other", false, false, "dev", false},
		{"--context, back to it", true, "other", false, false, "other", true},
		{"current context moved since the start", true, "", false, true, "other", false},
		{"start unknown", true, "", true, false, "dev", false},
		{"flag not given", false, "", false, false, "dev", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := testFlags(t, "https://127.0.0.1:1")
			*f.Insecure, *f.Context = tt.insecure, tt.context
			if tt.badPath {
				*f.KubeConfig = filepath.Join(t.TempDir(), "absent")
			}
			if _, err := f.ToRawKubeConfigLoader().RawConfig(); err != nil && !tt.badPath {
				t.Fatal(err) // the start: Connect loads the kubeconfig first
			}
			if tt.moved {
				cfg, err := clientcmd.LoadFromFile(*f.KubeConfig)
				if err != nil {
					t.Fatal(err)
				}
				cfg.CurrentContext = "other"
				if err := clientcmd.WriteToFile(*cfg, *f.KubeConfig); err != nil {
					t.Fatal(err)
				}
			}
			if got := *ContextFlags(f, tt.to).Insecure; got != tt.want {
				t.Errorf("insecure for %q = %v, want %v", tt.to, got, tt.want)
			}
			if *f.Insecure != tt.insecure {
				t.Errorf("ContextFlags modified f: insecure %v", *f.Insecure)
			}
		})
	}
}

func deref(v any) any {
	switch p := v.(type) {
	case *string:
		return *p
	case *bool:
		return *p
	case *[]string:
		return *p
	}
	return v
}

// TestContextFlagsStayReadOnly: the clients of a context switched to from read-only flags refuse writes too.
func TestContextFlagsStayReadOnly(t *testing.T) {
	f := NewConfigFlags()
	ReadOnly(f)
	cfg := ContextFlags(f, "staging").WrapConfigFn(&rest.Config{Host: "https://server"})
	rt := cfg.WrapTransport(http.DefaultTransport)
	req, _ := http.NewRequest(http.MethodDelete, "https://server/api/v1/namespaces/shop", nil)
	var refused *readonly.RefusedError
	if _, err := rt.RoundTrip(req); !errors.As(err, &refused) {
		t.Fatalf("DELETE after a context switch: %v, want refused", err)
	}
}

// TestNoTerminalInput: an exec credential plugin of the UI's clients never gets the terminal's input; a
// kubeconfig user without a plugin is left as it is.
func TestNoTerminalInput(t *testing.T) {
	f := NewConfigFlags()
	NoTerminalInput(f)
	ReadOnly(f) // chains
	for _, ctx := range []string{"", "other"} {
		flags := f
		if ctx != "" {
			flags = ContextFlags(f, ctx)
		}
		cfg := flags.WrapConfigFn(&rest.Config{Host: "https://server", ExecProvider: &clientcmdapi.ExecConfig{Command: "plugin"}})
		if !cfg.ExecProvider.StdinUnavailable || cfg.ExecProvider.StdinUnavailableMessage == "" {
			t.Errorf("context %q: the plugin may read the terminal: %+v", ctx, cfg.ExecProvider)
		}
		if plain := flags.WrapConfigFn(&rest.Config{Host: "https://server"}); plain.ExecProvider != nil {
			t.Errorf("context %q: a user without a plugin got one", ctx)
		}
	}
}

// TestNoTerminalInputKeepsConfig: the wrapper changes a copy of the plugin's settings, never the config it is
// given (rest.CopyConfig shares them), so clients built from one config on several goroutines do not race.
func TestNoTerminalInputKeepsConfig(t *testing.T) {
	f := NewConfigFlags()
	NoTerminalInput(f)
	clusterInfo := &runtime.Unknown{Raw: []byte(`{"audience":"kscope"}`)} // a kubeconfig cluster's exec extension
	orig := &rest.Config{Host: "https://server",
		ExecProvider: &clientcmdapi.ExecConfig{Command: "plugin", Args: []string{"token"}, Config: clusterInfo}}
	want := *orig.ExecProvider
	var wg sync.WaitGroup
	got := make([]*rest.Config, 4)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = f.WrapConfigFn(orig)
		}()
	}
	wg.Wait()
	if !reflect.DeepEqual(*orig.ExecProvider, want) || orig.ExecProvider.Config != clusterInfo {
		t.Errorf("the original config's plugin settings changed: %+v", orig.ExecProvider)
	}
	for _, c := range got {
		if c.ExecProvider == orig.ExecProvider || !c.ExecProvider.StdinUnavailable || c.ExecProvider.Command != "plugin" {
			t.Errorf("wrapped config's plugin settings: %+v (shared: %v)", c.ExecProvider, c.ExecProvider == orig.ExecProvider)
		}
	}
}

// TestImpersonationFollowsContexts: --as and --as-group carry over to another context, and Info names them
// for the header.
func TestImpersonationFollowsContexts(t *testing.T) {
	ts := fakeAPIServer(t, http.StatusOK)
	f := testFlags(t, ts.URL)
	*f.Impersonate, *f.ImpersonateGroup = "alice", []string{"devs", "ops"}
	for _, flags := range []*genericclioptions.ConfigFlags{f, ContextFlags(f, "other")} {
		c, err := Connect(context.Background(), flags, nil)
		if err != nil {
			t.Fatal(err)
		}
		info := c.Info()
		c.Close()
		if info.As != "alice" || !reflect.DeepEqual(info.AsGroups, []string{"devs", "ops"}) {
			t.Errorf("context %q: as %q, groups %q; want alice, [devs ops]", info.Context, info.As, info.AsGroups)
		}
	}
}
