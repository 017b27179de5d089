package ui

import (
	"context"
	"testing"

	"kscope/cluster"
)

// TestCtxWithoutANameOpensTheContextsScreen: `:ctx` alone opens the registered contexts screen over
// Options.Contexts, and what the screen picks switches the connection as `:ctx NAME` does; without the list
// or the screen, `:ctx` alone says how to use it.
func TestCtxWithoutANameOpensTheContextsScreen(t *testing.T) {
	other := fixtureCluster()
	other.info.Context = "viewer"
	var use func(string)
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Connect = func(context.Context, string) (cluster.Interface, error) { return other, nil }
		o.Contexts = func() ([]cluster.KubeContext, error) {
			return []cluster.KubeContext{{Name: "admin"}, {Name: "viewer"}}, nil
		}
		o.Registered[0].Plays.Contexts = func(nav Navigator, list func() ([]cluster.KubeContext, error), u func(string)) Screen {
			use = u
			return stubContexts(nav, list, u)
		}
	})
	h.command("ctx")
	h.eventually("contexts stub of 2 (<nil>)")
	h.ui(func() { use("viewer") })
	h.eventually("Context: viewer")
	h.eventually("switched to context viewer")

	bare := start(t, 100, 30, func(o *Options) { o.Resource = "pods" }) // no Options.Contexts
	bare.command("ctx")
	bare.eventually("usage: :ctx NAME")
}
