package ui

import (
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/picker"
	"kscope/ui/theme"
)

func TestPickerStartScreen(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.golden("picker_100x30")
	st, ok := h.style("tokenreviews")
	if fg, _, _ := st.Decompose(); !ok || fg != theme.ColorDim {
		t.Errorf("tokenreviews (no list/watch) is not dimmed: %v %v", ok, fg)
	}
}

func TestPickerTypeToFilterAndOpen(t *testing.T) {
	h := start(t, 80, 24, nil)
	h.typeText("deploy")
	h.golden("picker_filtered_80x24")
	h.press(tcell.KeyEnter, 0)
	h.contains("deployments(shop)[1]")
	h.contains("web")
}

func TestPickerUnlistableRefused(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.typeText("tokenreviews\n")
	h.contains("tokenreviews.authentication.k8s.io cannot be listed and watched (verbs: create)")
	if _, ok := h.app.top().(*picker.Picker); !ok {
		t.Error("a table opened for a resource without list/watch")
	}
}

func TestPickerShowsNewResourceLive(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.lacks("gadgets")
	h.cluster.catalog.Add(discovery.Resource{Group: "shop.example.com", Version: "v1", Name: "gadgets",
		Kind: "Gadget", Verbs: []string{"list", "watch"}, Namespaced: true})
	h.eventually("gadgets") // the catalog tells its subscribers on a goroutine of its own
}

func TestPickerWide(t *testing.T) {
	h := start(t, 160, 30, nil)
	h.lacks("VERBS")
	h.press(tcell.KeyCtrlW, 0)
	h.contains("VERBS")
	h.contains("CATEGORIES")
}

func TestCommandBar(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.command("deploy")
	h.contains("deployments(shop)[1]")
	h.command("widgets.shop.example.com")
	h.contains("widgets(shop)[0]")
	h.command("deployments.v1.apps")
	h.contains("deployments(shop)[1]")
	h.command("nope")
	h.contains(`unknown resource "nope"`)
	h.golden("unknown_resource_100x30")
}

func TestCommandBarTabCompletion(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.typeText(":deploym")
	h.press(tcell.KeyTab, 0)
	if got := h.app.bar.Text(); got != "deployment" {
		t.Errorf("completed to %q, want the common prefix %q", got, "deployment")
	}
	h.contains("deployment  deployments")
	h.press(tcell.KeyEscape, 0)
	h.typeText(":ctx v")
	h.press(tcell.KeyTab, 0)
	if got := h.app.bar.Text(); got != "ctx viewer" {
		t.Errorf("completed to %q, want %q", got, "ctx viewer")
	}
}

func TestStatusLineNamesUnavailableGroups(t *testing.T) {
	h := start(t, 120, 30, func(o *Options) {
		o.Cluster.(*fakeCluster).catalog.SetUnavailable(discovery.Unavailable{
			GroupVersion: "metrics.k8s.io/v1beta1", Reason: "the server is currently unable to handle the request"})
		o.Resource = "pods"
	})
	h.contains("synced  3/3  unavailable: metrics.k8s.io/v1beta1")
}

func TestNamespaceCompletion(t *testing.T) {
	h := start(t, 100, 30, nil)
	h.typeText(":ns s")
	h.press(tcell.KeyTab, 0)
	if got := h.app.bar.Text(); got != "ns shop" {
		t.Errorf("completed to %q, want %q", got, "ns shop")
	}
	h.press(tcell.KeyEnter, 0)
	h.contains("Namespace: shop")
}
