package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/config"
	"kscope/ui/files"
)

// infoOptions prints every path kscope reads and writes: `kscope info`.
type infoOptions struct {
	flags   *genericclioptions.ConfigFlags // for the context kscope would start in
	streams genericiooptions.IOStreams
	dirs    config.Dirs
	saveDir string
	// saveDirState says where saveDir comes from.
	saveDirState string
}

// fileRow is one file of the listing and why it cannot be used (nil: it can).
type fileRow struct {
	file config.File
	err  error
}

// settingsFiles are config.yaml, the starting context's file, keys.yaml and the skin that applies.
func (o *infoOptions) settingsFiles() []fileRow {
	s, settings, err := config.LoadSettings(o.dirs)
	rows := []fileRow{{settings, err}}
	var ctx config.ContextSettings
	if cluster, context := currentContext(o.flags); context != "" {
		var ctxFile config.File
		ctx, ctxFile, err = config.LoadContextSettings(o.dirs, cluster, context)
		ctxFile.Kind = "context " + context
		rows = append(rows, fileRow{ctxFile, err})
	}
	_, keys, err := config.LoadKeys(o.dirs)
	rows = append(rows, fileRow{keys, err})
	if _, f, err := loadSkin(o.dirs, s.Skin, ctx.Skin); f.Kind != "" {
		f.Kind += " " + strings.TrimSuffix(filepath.Base(f.Path), ".yaml")
		rows = append(rows, fileRow{f, err})
	}
	return rows
}

func newInfoCommand(flags *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &infoOptions{flags: flags, streams: streams}
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
	o.saveDirState = "written (the default; --save-dir or config.yaml's screenDumpDir chooses another)"
	if s, _, err := config.LoadSettings(o.dirs); err == nil && s.SaveDir != "" {
		o.saveDir, o.saveDirState = s.SaveDir, "written (config.yaml's screenDumpDir; --save-dir chooses another)"
	}
	if o.saveDir == "" {
		o.saveDir = files.DefaultDir()
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
	_, jumps, jumpErr := config.LoadJumps(o.dirs)
	files := []fileRow{{aliases, aliasErr}, {hotkeys, hotkeyErr}, {plugins, pluginErr}, {views, viewErr}, {jumps, jumpErr}}
	files = append(files, o.settingsFiles()...)
	for _, f := range files {
		fmt.Fprintf(w, "%s\t%s\t%s\n", f.file.Kind, f.file.Path, fileState(f.file, f.err))
	}
	fmt.Fprintf(w, "saved logs and tables (ctrl-s)\t%s\t%s\n", o.saveDir, o.saveDirState)
	return w.Flush()
}

func fileState(f config.File, err error) string {
	switch {
	case err != nil:
		return "unusable: " + err.Error()
	case f.From == "k9s":
		return "read (k9s's file: kscope has none)"
	case f.From == "both":
		return "read, over k9s's file (kscope's rule for a resource wins)"
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
