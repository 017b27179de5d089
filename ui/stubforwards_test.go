package ui

import (
	"fmt"

	"github.com/rivo/tview"

	"kscope/forwards"
)

// stubForwards is the tests' :pf screen (the real one, package ui/portforwards, imports ui): a line counting
// the forwards.
func stubForwards(nav Navigator, list *forwards.List) Screen {
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("forwards stub of %d", len(list.Items())))}
}
