package theme

import (
	"fmt"
	"strings"

	"github.com/rivo/tview"

	"kscope/history"
)

// DiffMarkup renders a folded diff as tview markup, the lines escaped: "- " lines red, "+ " lines green,
// unchanged lines indented, folds dim ("⋯ N unchanged lines"). The versions and rollouts screens draw their
// diffs with it.
func DiffMarkup(lines []history.FoldedLine) string {
	var b strings.Builder
	for _, l := range lines {
		switch {
		case l.Fold > 0:
			fmt.Fprintf(&b, "[gray]  ⋯ %d unchanged lines[-]\n", l.Fold)
		case l.Op == history.DiffRemoved:
			b.WriteString("[red]- " + tview.Escape(l.Text) + "[-]\n")
		case l.Op == history.DiffAdded:
			b.WriteString("[green]+ " + tview.Escape(l.Text) + "[-]\n")
		default:
			b.WriteString("  " + tview.Escape(l.Text) + "\n")
		}
	}
	return b.String()
}
