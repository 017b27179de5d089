package ui

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"
)

// Header is the two lines at the top: the connection (context, cluster, user, server and kscope versions,
// read-only mark), then the namespace and the breadcrumbs of the view stack. UI goroutine only.
type Header struct {
	view *tview.TextView
}

// NewHeader returns an empty header.
func NewHeader() *Header {
	return &Header{view: tview.NewTextView().SetDynamicColors(true).SetWrap(false)}
}

// Set rewrites the header.
func (h *Header) Set(info ClusterInfo, namespace, version string, readOnly bool, crumbs []string) {
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
	line1 := fmt.Sprintf("%s[orange]Context:[-] %s  [orange]Cluster:[-] %s  [orange]User:[-] %s  [orange]K8s:[-] %s  [orange]kscope:[-] %s",
		ro, tview.Escape(info.Context), tview.Escape(info.Cluster), tview.Escape(info.User),
		tview.Escape(server), tview.Escape(version))
	parts := make([]string, len(crumbs))
	for i, c := range crumbs {
		color := "gray"
		if i == len(crumbs)-1 {
			color = "aqua"
		}
		parts[i] = fmt.Sprintf("[%s]<%s>[-]", color, tview.Escape(c))
	}
	line2 := fmt.Sprintf("[orange]Namespace:[-] %s  %s", tview.Escape(ns), strings.Join(parts, " "))
	h.view.SetText(line1 + "\n" + line2)
}
