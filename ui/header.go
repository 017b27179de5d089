package ui

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/ui/theme"
)

// Header is the two lines at the top: the connection (context, cluster, user and whom it impersonates, server
// and kscope versions, read-only mark), then the namespace, the numbered namespaces (0 all, 1–9 the favourites) and the
// breadcrumbs of the view stack. UI goroutine only.
type Header struct {
	view  *tview.TextView
	theme *theme.Theme
}

// NewHeader returns an empty header.
func NewHeader() *Header {
	return &Header{view: tview.NewTextView().SetDynamicColors(true).SetWrap(false), theme: theme.Default()}
}

// Set rewrites the header; numbered is the namespaces' keys as favoritesLine writes them ("0 all", "1 shop").
func (h *Header) Set(info cluster.Info, namespace string, numbered []string, version string, readOnly bool, crumbs []string) {
	ns := namespace
	if ns == "" {
		ns = "all"
	}
	ro := "" // first, so that a narrow terminal never cuts it off
	if readOnly {
		ro = "[black:red]READ-ONLY[-:-] "
	}
	server := info.ServerVersion
	if server == "" {
		server = "?"
	}
	th := h.theme
	field := func(label, value string) string {
		return th.InfoLabel + label + ":[-] " + th.InfoValue + tview.Escape(value) + theme.Reset(th.InfoValue)
	}
	line1 := ro + strings.Join([]string{field("Context", info.Context), field("Cluster", info.Cluster),
		field("User", userShown(info)), field("K8s", server), field("kscope", version)}, "  ")
	parts := make([]string, len(crumbs))
	for i, c := range crumbs {
		color := th.Crumb
		if i == len(crumbs)-1 {
			color = th.CrumbActive
		}
		parts[i] = fmt.Sprintf("%s<%s>[-:-]", color, tview.Escape(c))
	}
	nums := make([]string, len(numbered))
	for i, n := range numbered {
		key, name, _ := strings.Cut(n, " ")
		nums[i] = th.InfoLabel + key + "[-] " + th.InfoValue + tview.Escape(name) + theme.Reset(th.InfoValue)
	}
	line2 := field("Namespace", ns) + " (" + strings.Join(nums, " ") + ")  " + strings.Join(parts, " ")
	h.view.SetText(line1 + "\n" + line2)
}

// userShown returns the kubeconfig user of info, followed by the user and groups it impersonates, if any
// ("admin as alice (groups devs, ops)").
func userShown(info cluster.Info) string {
	user := info.User
	if info.As != "" {
		user += " as " + info.As
	}
	if len(info.AsGroups) > 0 {
		user += " (groups " + strings.Join(info.AsGroups, ", ") + ")"
	}
	return user
}
