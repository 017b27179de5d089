package kube

import (
	"errors"
	"net/http"
	"reflect"
	"testing"

	"k8s.io/client-go/rest"
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
		{"insecure kept", n.Insecure, f.Insecure},
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
