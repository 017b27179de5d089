package objectview

import (
	"github.com/rivo/tview"

	"kscope/apierr"
)

// titleState is the part of an object view's title that says the object was deleted, or the last error
// ("" while it is live).
func titleState(deleted bool, err error) string {
	switch {
	case deleted:
		return "[red::b](deleted) "
	case err != nil:
		return "[red]" + tview.Escape(apierr.OneLine(err.Error())) + " "
	}
	return ""
}
