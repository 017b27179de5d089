package discovery

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestResolveList(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	tests := []struct {
		input     string
		resources string // FullNames, comma-separated
		union     bool
		canonical string
	}{
		{"deploy", "deployments.apps", false, "deployments.apps"},
		{"deploy,rs,po", "deployments.apps,replicasets.apps,pods", true, "deployments.apps,replicasets.apps,pods"},
		{" deploy , Deployment,deployments.apps", "deployments.apps", false, "deployments.apps,deployments.apps,deployments.apps"},
		// kubectl's `all`: the resources discovery lists in the category, in discovery order
		{"all", "pods,services,deployments.apps,replicasets.apps,widgets.shop.example.com", true, "all"},
		{"shop", "widgets.shop.example.com", true, "shop"}, // a category of one resource is still a category
		{"cm,all", "configmaps,pods,services,deployments.apps,replicasets.apps,widgets.shop.example.com", true, "configmaps,all"},
		{"svc,all", "services,pods,deployments.apps,replicasets.apps,widgets.shop.example.com", true, "services,all"},
		{"ns,deploy", "namespaces,deployments.apps", true, "namespaces,deployments.apps"},
	}
	for _, tt := range tests {
		t.Run(tt.input, func(t *testing.T) {
			l, err := c.ResolveList(context.Background(), tt.input)
			if err != nil {
				t.Fatalf("ResolveList(%q): %v", tt.input, err)
			}
			if got := joinedNames(l.Resources); got != tt.resources {
				t.Errorf("resources = %s, want %s", got, tt.resources)
			}
			if l.Union() != tt.union {
				t.Errorf("Union() = %v, want %v", l.Union(), tt.union)
			}
			if got := l.Canonical(); got != tt.canonical {
				t.Errorf("Canonical() = %s, want %s", got, tt.canonical)
			}
			again, err := c.ResolveList(context.Background(), l.Canonical())
			if err != nil || joinedNames(again.Resources) != tt.resources {
				t.Errorf("the canonical form %q resolves to %s (%v), want %s", l.Canonical(), joinedNames(again.Resources), err, tt.resources)
			}
		})
	}
}

func TestResolveListNamesTheUnknown(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	for input, want := range map[string]string{
		"deploy,podz,sts": `unknown resource "podz" (did you mean pods`,
		"deploy,,rs":      `unknown resource ""`,
		"deploy,":         `unknown resource ""`,
		"deploy,wd":       ``, // wd: the server's first group wins, as for Resolve
		"po,foo":          ``,
	} {
		_, err := c.ResolveList(context.Background(), input)
		switch {
		case want == "" && err != nil:
			t.Errorf("ResolveList(%q): %v", input, err)
		case want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("ResolveList(%q) = %v, want an error starting %q", input, err, want)
		case want != "":
			var nf *NotFoundError
			if !errors.As(err, &nf) {
				t.Errorf("ResolveList(%q): %T, want a *NotFoundError", input, err)
			}
		}
	}
}

func joinedNames(rs []Resource) string {
	names := make([]string, 0, len(rs))
	for _, r := range rs {
		names = append(names, r.FullName())
	}
	return strings.Join(names, ",")
}

func TestResolveListKeepsTheVersionAsked(t *testing.T) {
	c, _ := loadedCatalog(t, testServer())
	l, err := c.ResolveList(context.Background(), "horizontalpodautoscalers.v1.autoscaling,po")
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Canonical(); got != "horizontalpodautoscalers.v1.autoscaling,pods" {
		t.Errorf("Canonical() = %s", got)
	}
	if v := l.Resources[0].Version; v != "v1" {
		t.Errorf("version %s, want the v1 asked for", v)
	}
}
