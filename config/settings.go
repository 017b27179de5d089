package config

import (
	"path/filepath"
	"regexp"
)

// Settings are the defaults config.yaml gives; a nil or empty field is one the file does not set (the
// command line's flags, then kscope's defaults, decide). The file is k9s's config.yaml; kscope reads:
//
//	k9s:
//	  readOnly: true
//	  screenDumpDir: /tmp/dumps
//	  defaultView: deploy
//	  refreshRate: 2        # k9s polls; kscope's tables are live (read, not used)
//	  ui:
//	    enableMouse: true
//	    skin: dracula
//	  logger:
//	    tail: 100
//	    buffer: 5000
//	    textWrap: false
//	    showTime: false
//	    disableAutoscroll: false
type Settings struct {
	// ReadOnly refuses every write (k9s.readOnly).
	ReadOnly *bool
	// ForceReadOnly says the file exists but kscope could not read whether it asks for read-only (it
	// cannot be read or parsed, or readOnly's value is not true or false): kscope then starts read-only,
	// whatever the other files say.
	ForceReadOnly bool
	// Mouse turns the mouse on (k9s.ui.enableMouse).
	Mouse *bool
	// Skin names the skin, skins/NAME.yaml (k9s.ui.skin).
	Skin string
	// SaveDir is where ctrl-s writes (k9s.screenDumpDir).
	SaveDir string
	// StartView is the command line kscope starts with, as the command bar takes it (k9s.defaultView).
	StartView string
	// LogLines is how many lines a logs view keeps (k9s.logger.buffer); LogTail how many of a container's
	// last lines it starts with (k9s.logger.tail). 0: not set.
	LogLines, LogTail int
	// LogWrap, LogTimestamps and LogFollow are the logs view's toggles at start (k9s.logger.textWrap,
	// showTime, and disableAutoscroll negated).
	LogWrap, LogTimestamps, LogFollow *bool
}

// LoadSettings reads config.yaml of d (kscope's, else k9s's), value by value: a value kscope cannot use
// (a wrong type, out of range, as k9s's limits are: logger.buffer and logger.tail between 1 and 5000) is
// left out, with one Problem naming it; the others are read. A file that exists but cannot be read or
// parsed sets ForceReadOnly, and so does a readOnly that is not true or false. The error is a Problem or
// Problems.
func LoadSettings(d Dirs) (Settings, File, error) {
	f := d.find("config", "config.yaml")
	v, err := readValues(f)
	if err != nil {
		return Settings{ReadOnly: ptr(true), ForceReadOnly: true}, f, err
	}
	var s Settings
	s.ReadOnly, s.ForceReadOnly = v.readOnly("k9s.readOnly")
	s.Mouse = v.boolean("k9s.ui.enableMouse")
	s.Skin = v.skin("k9s.ui.skin")
	s.SaveDir = v.text("k9s.screenDumpDir")
	s.StartView = resourceForm(v.text("k9s.defaultView"))
	v.get("k9s.refreshRate", new(float64)) // read, not used: a bad one is said
	s.LogLines, s.LogTail = v.logLines("k9s.logger.buffer"), v.logLines("k9s.logger.tail")
	s.LogWrap, s.LogTimestamps = v.boolean("k9s.logger.textWrap"), v.boolean("k9s.logger.showTime")
	if noFollow := v.boolean("k9s.logger.disableAutoscroll"); noFollow != nil {
		s.LogFollow = ptr(!*noFollow)
	}
	return s, f, v.err()
}

func ptr[T any](v T) *T { return &v }

// maxLogLines is k9s's bound on logger.buffer and logger.tail (its MaxLogThreshold).
const maxLogLines = 5000

// skinName is what a skin may be called: a file name in skins/, without folders.
var skinName = regexp.MustCompile(`^[\w][\w.\-]*$`)

// ContextSettings are a kubeconfig context's own settings (k9s's clusters/CLUSTER/CONTEXT/config.yaml);
// they win over config.yaml's.
//
//	k9s:
//	  cluster: prod
//	  readOnly: true
//	  skin: red
//	  namespace:
//	    active: shop
//	  view:
//	    active: deploy
type ContextSettings struct {
	// ReadOnly refuses every write in this context (k9s.readOnly).
	ReadOnly *bool
	// ForceReadOnly says the file exists but kscope could not read whether it asks for read-only (as
	// Settings.ForceReadOnly).
	ForceReadOnly bool
	// Skin names this context's skin (k9s.skin).
	Skin string
	// Namespace is the namespace to start in when the kubeconfig context names none ("all": every
	// namespace); View the command line to start with (k9s.namespace.active, k9s.view.active).
	Namespace, View string
	// Favorites are the context's favourite namespaces (k9s.namespace.favorites), kscope's keys 1 to 9
	// when its own state file has none for the context.
	Favorites []string
}

// LoadContextSettings reads the file of the kubeconfig context named context, of cluster: kscope's
// clusters/CLUSTER/CONTEXT/config.yaml, else k9s's (under Dirs.K9sData). ':' and '/' in the names become
// '-', as k9s writes them. It reads the file as LoadSettings does: value by value, ForceReadOnly when
// the file or its readOnly cannot be read.
func LoadContextSettings(d Dirs, cluster, context string) (ContextSettings, File, error) {
	sub := filepath.Join("clusters", sanitize(cluster), sanitize(context))
	in := Dirs{KScope: filepath.Join(d.KScope, sub)}
	if d.K9sData != "" {
		in.K9s = filepath.Join(d.K9sData, sub)
	}
	f := in.find("context config", "config.yaml")
	v, err := readValues(f)
	if err != nil {
		return ContextSettings{ReadOnly: ptr(true), ForceReadOnly: true}, f, err
	}
	var s ContextSettings
	s.ReadOnly, s.ForceReadOnly = v.readOnly("k9s.readOnly")
	s.Skin = v.skin("k9s.skin")
	s.Namespace = v.text("k9s.namespace.active")
	s.View = resourceForm(v.text("k9s.view.active"))
	s.Favorites = v.namespaces("k9s.namespace.favorites")
	return s, f, v.err()
}

// unsafePath are the characters k9s replaces in cluster and context names to make folder names.
var unsafePath = regexp.MustCompile(`[:/]+`)

func sanitize(name string) string { return unsafePath.ReplaceAllString(name, "-") }
