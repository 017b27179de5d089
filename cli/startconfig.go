package cli

import (
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"kscope/config"
)

// fromFiles is what the configuration files add to the command line's options at start.
type fromFiles struct {
	startView                         string
	skin                              *config.Skin
	keys                              []config.KeyRemap
	logTail                           int
	logWrap, logTimestamps, logFollow *bool
	favorites                         map[string][]string // favourite namespaces by kubeconfig context
}

// applySettings takes config.yaml's defaults, and those of the per-context file of the context kscope
// starts in, where the command line does not set them (a flag given always wins; the context's file wins
// over config.yaml, as in k9s). It returns one line per file that could not be used.
func (o *tuiOptions) applySettings(dirs config.Dirs) []string {
	var problems []string
	note := func(err error) { problems = append(problems, config.Lines(err)...) }
	namespaceGiven := o.allNamespaces || (o.flags.Namespace != nil && *o.flags.Namespace != "")
	s, _, err := config.LoadSettings(dirs)
	note(err)
	cluster, context := currentContext(o.flags)
	ctx, _, err := config.LoadContextSettings(dirs, cluster, context)
	note(err)
	if !o.changed("readonly") {
		o.readOnly = readOnlyOf(s, ctx)
	}
	if s.Mouse != nil && !o.changed("mouse") {
		o.mouse = *s.Mouse
	}
	if s.SaveDir != "" && !o.changed("save-dir") {
		o.saveDir = s.SaveDir
	}
	if s.LogLines > 0 && !o.changed("log-lines") {
		o.logLines = s.LogLines
	}
	o.files.logTail, o.files.logWrap, o.files.logTimestamps, o.files.logFollow = s.LogTail, s.LogWrap, s.LogTimestamps, s.LogFollow
	o.files.startView = s.StartView
	problems = append(problems, o.applyLastView(dirs, context, namespaceGiven)...) // before the context file's
	if o.files.startView == "" {
		o.files.startView = ctx.View
	}
	if len(o.files.favorites[context]) == 0 && len(ctx.Favorites) > 0 { // k9s's, until kscope keeps its own
		if o.files.favorites == nil {
			o.files.favorites = map[string][]string{}
		}
		o.files.favorites[context] = ctx.Favorites
	}
	if p := o.contextNamespace(ctx.Namespace); p != "" {
		problems = append(problems, p)
	}
	o.files.skin, _, err = loadSkin(dirs, s.Skin, ctx.Skin)
	note(err)
	o.files.keys, _, err = config.LoadKeys(dirs)
	note(err)
	return problems
}

// contextNamespace starts in the context file's namespace ("all": every one) when neither the command
// line nor the kubeconfig context names one, as k9s does. It returns a problem line, or "".
func (o *tuiOptions) contextNamespace(ns string) string {
	if ns == "" || o.allNamespaces || (o.flags.Namespace != nil && *o.flags.Namespace != "") || kubeconfigNamespace(o.flags) != "" {
		return ""
	}
	if ns == "all" {
		o.allNamespaces = true
		return ""
	}
	if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
		return fmt.Sprintf("context config: namespace.active %q: %s", ns, errs[0])
	}
	o.flags.Namespace = &ns
	return ""
}

// loadSkin reads the skin that applies, k9s's way: $K9S_SKIN, else the context's, else config.yaml's
// ui.skin; nil (and a File without a Kind) when none is named.
func loadSkin(dirs config.Dirs, global, context string) (*config.Skin, config.File, error) {
	name := global
	if context != "" {
		name = context
	}
	if env := os.Getenv("K9S_SKIN"); env != "" {
		name = env
	}
	if name == "" {
		return nil, config.File{}, nil
	}
	return config.LoadSkin(dirs, name)
}

// readOnlyOf is whether the files ask for read-only: the context's readOnly, else config.yaml's; always
// when either file could not say (it exists but cannot be read or parsed, or its readOnly is unusable).
func readOnlyOf(global config.Settings, ctx config.ContextSettings) bool {
	switch {
	case global.ForceReadOnly || ctx.ForceReadOnly:
		return true
	case ctx.ReadOnly != nil:
		return *ctx.ReadOnly
	case global.ReadOnly != nil:
		return *global.ReadOnly
	}
	return false
}

// refuseReadOnlyContext is the error for `:ctx NAME` when the files ask for read-only in NAME (its context
// file, else config.yaml, as at start; either one that cannot be read) and kscope runs writable: the
// transport of a running kscope cannot become read-only, so it does not switch. flagGiven says --readonly
// was given (as --readonly=false): then config.yaml's readOnly does not apply, as it did not at start, but
// the context's file still does.
func refuseReadOnlyContext(dirs config.Dirs, flags *genericclioptions.ConfigFlags, readOnly, flagGiven bool) error {
	if readOnly {
		return nil // already refuses every write
	}
	cluster, context := currentContext(flags)
	ctx, f, ctxErr := config.LoadContextSettings(dirs, cluster, context)
	global, g, globalErr := config.LoadSettings(dirs)
	if flagGiven {
		global, globalErr = config.Settings{}, nil
	}
	if !readOnlyOf(global, ctx) {
		return nil
	}
	why := f.Path
	switch {
	case ctx.ForceReadOnly:
		why = ctxErr.Error()
	case global.ForceReadOnly:
		why = globalErr.Error()
	case ctx.ReadOnly == nil:
		why = g.Path
	}
	return fmt.Errorf("context %s is read-only (%s): start kscope with --context %s to use it", context, why, context)
}
