package main

import (
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/config"
	"kscope/ui"
)

// infoOptions prints every path kscope reads and writes: `kscope info`.
type infoOptions struct {
	streams genericiooptions.IOStreams
	dirs    config.Dirs
	saveDir string
}

func newInfoCommand(streams genericiooptions.IOStreams) *cobra.Command {
	o := &infoOptions{streams: streams}
	return &cobra.Command{
		Use:   "info",
		Short: "Print the files and folders kscope reads and writes",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			o.Complete()
			return o.Run()
		},
	}
}

// Complete takes the folders from the environment.
func (o *infoOptions) Complete() {
	o.dirs = config.DefaultDirs()
	if o.saveDir == "" {
		o.saveDir = ui.DefaultSaveDir()
	}
}

// Run prints one line per path: what it is, the path, and whether kscope uses it.
func (o *infoOptions) Run() error {
	w := tabwriter.NewWriter(o.streams.Out, 0, 8, 2, ' ', 0)
	fmt.Fprintf(w, "WHAT\tPATH\tSTATE\n")
	fmt.Fprintf(w, "config folder\t%s\t%s\n", o.dirs.KScope, exists(o.dirs.KScope, "present", "absent"))
	fmt.Fprintf(w, "k9s config folder\t%s\t%s\n", o.dirs.K9s, exists(o.dirs.K9s, "read for the files kscope's lacks", "absent"))
	_, aliases, aliasErr := config.LoadAliases(o.dirs)
	_, hotkeys, hotkeyErr := config.LoadHotKeys(o.dirs)
	_, plugins, pluginErr := config.LoadPlugins(o.dirs)
	_, views, viewErr := loadViews(o.dirs)
	for _, f := range []struct {
		file config.File
		err  error
	}{{aliases, aliasErr}, {hotkeys, hotkeyErr}, {plugins, pluginErr}, {views, viewErr}} {
		fmt.Fprintf(w, "%s\t%s\t%s\n", f.file.Kind, f.file.Path, fileState(f.file, f.err))
	}
	fmt.Fprintf(w, "saved logs and tables (ctrl-s)\t%s\t%s\n", o.saveDir, "written (the default; --save-dir chooses another)")
	return w.Flush()
}

func fileState(f config.File, err error) string {
	switch {
	case err != nil:
		return "unusable: " + err.Error()
	case f.From == "k9s":
		return "read (k9s's file: kscope has none)"
	case f.From == "kscope":
		return "read"
	}
	return "none"
}

func exists(path, yes, no string) string {
	if _, err := os.Stat(path); err == nil {
		return yes
	}
	return no
}
