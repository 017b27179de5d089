package ui

import (
	"fmt"

	"github.com/rivo/tview"

	"kscope/cluster"
)

// stubForwards is the tests' :pf screen, registered as the real one (package ui/portforwards, which imports
// ui) declares itself: a line counting the session's forwards.
var stubForwards = ScreenSpec{Commands: []Command{{Names: []string{"pf", "portforwards"}, Run: func(s Session, _ []string) {
	s.Push(&stubScreen{nav: s, text: tview.NewTextView().SetText(fmt.Sprintf("forwards stub of %d", len(s.Forwards().Items())))})
}}}}

// stubContexts is the tests' contexts screen (the real one is package ui/contexts): a line counting the
// contexts list gave.
func stubContexts(nav Navigator, list func() ([]cluster.KubeContext, error), _ func(string)) Screen {
	contexts, err := list()
	return &stubScreen{nav: nav, text: tview.NewTextView().SetText(fmt.Sprintf("contexts stub of %d (%v)", len(contexts), err))}
}
