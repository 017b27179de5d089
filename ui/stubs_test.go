package ui

import (
	"fmt"

	"github.com/rivo/tview"

	"kscope/cluster"
	"kscope/forwards"
)

// stubForwards is the tests' :pf screen (the real one, package ui/portforwards, imports ui): a line counting
// the forwards.
func stubForwards(nav Navigator, list *forwards.List) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("forwards stub of %d", len(list.Items())))}
}

// stubContexts is the tests' contexts screen (the real one is package ui/contexts): a line counting the
// contexts list gave.
func stubContexts(nav Navigator, list func() ([]cluster.KubeContext, error), _ func(string)) Screen {
	contexts, err := list()
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("contexts stub of %d (%v)", len(contexts), err))}
}
