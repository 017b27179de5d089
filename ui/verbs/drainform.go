package verbs

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/rivo/tview"

	"kscope/cluster"
)

// drainForm shows kubectl drain's flags for node in a dialog, starting from opts: Tab moves between the
// fields and the buttons, esc or Cancel closes it, Drain calls done with the values (a value that does not
// parse is said on the prompt line and the dialog stays). UI goroutine only.
func (v *Verbs) drainForm(node string, opts cluster.DrainOptions, done func(cluster.DrainOptions)) {
	grace, timeout := strconv.Itoa(opts.GracePeriod), opts.Timeout.String()
	form := tview.NewForm().
		AddInputField("Grace period (seconds; -1: each pod's own)", grace, 8, nil, func(s string) { grace = s }).
		AddInputField("Timeout (2m, 30s; 0: none)", timeout, 8, nil, func(s string) { timeout = s }).
		AddCheckbox("Ignore DaemonSets", opts.IgnoreDaemonSets, func(on bool) { opts.IgnoreDaemonSets = on }).
		AddCheckbox("Delete emptyDir data", opts.DeleteEmptyDirData, func(on bool) { opts.DeleteEmptyDirData = on }).
		AddCheckbox("Force (pods without a controller)", opts.Force, func(on bool) { opts.Force = on })
	form.AddButton("Cancel", v.CloseDialog).AddButton("Drain", func() {
		var err error
		if opts.GracePeriod, opts.Timeout, err = parseDrainFlags(grace, timeout); err != nil {
			v.Errorf("%s", err.Error())
			return
		}
		v.CloseDialog()
		done(opts)
	})
	form.SetCancelFunc(v.CloseDialog)
	form.SetBorder(true).SetTitle(" Drain node " + tview.Escape(node) + " ")
	v.Theme().Paint(form)
	dialog := tview.NewGrid().SetColumns(0, 60, 0).SetRows(0, 15, 0).AddItem(form, 1, 1, 1, 1, 0, 0, true)
	v.ShowDialog(dialog, form)
}

// parseDrainFlags reads the drain dialog's grace period (whole seconds, -1 or more) and timeout (a Go
// duration, or a number of seconds; 0 or more).
func parseDrainFlags(grace, timeout string) (int, time.Duration, error) {
	g, err := strconv.Atoi(strings.TrimSpace(grace))
	if err != nil || g < -1 {
		return 0, 0, fmt.Errorf("grace period %q: want whole seconds, -1 for each pod's own", grace)
	}
	timeout = strings.TrimSpace(timeout)
	d, err := time.ParseDuration(timeout)
	if n, nerr := strconv.Atoi(timeout); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d < 0 {
		return 0, 0, fmt.Errorf("timeout %q: want a duration such as 2m or 30s, 0 for none", timeout)
	}
	return g, d, nil
}
