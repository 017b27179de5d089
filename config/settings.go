package config

import (
	"fmt"
	"path/filepath"
	"regexp"
)

// settingsFile is k9s's config.yaml, the fields kscope uses (k9s has many more; the others are ignored):
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
type settingsFile struct {
	K9s struct {
		ReadOnly      *bool    `json:"readOnly"`
		ScreenDumpDir string   `json:"screenDumpDir"`
		DefaultView   string   `json:"defaultView"`
		RefreshRate   *float64 `json:"refreshRate"`
		UI            struct {
			EnableMouse *bool  `json:"enableMouse"`
			Skin        string `json:"skin"`
		} `json:"ui"`
		Logger struct {
			Tail              *int64 `json:"tail"`
			Buffer            *int   `json:"buffer"`
			TextWrap          *bool  `json:"textWrap"`
			ShowTime          *bool  `json:"showTime"`
			DisableAutoscroll *bool  `json:"disableAutoscroll"`
		} `json:"logger"`
	} `json:"k9s"`
}

// Settings are the defaults config.yaml gives; a nil or empty field is one the file does not set (the
// command line's flags, then kscope's defaults, decide).
type Settings struct {
	// ReadOnly refuses every write (k9s.readOnly).
	ReadOnly *bool
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

// LoadSettings reads config.yaml of d (kscope's, else k9s's). A value out of range is a Problem, as k9s's
// limits are: logger.buffer and logger.tail at most 5000, at least 1.
func LoadSettings(d Dirs) (Settings, File, error) {
	f := d.find("config", "config.yaml")
	var raw settingsFile
	if err := read(f, &raw); err != nil {
		return Settings{}, f, err
	}
	k := raw.K9s
	s := Settings{ReadOnly: k.ReadOnly, Mouse: k.UI.EnableMouse, Skin: k.UI.Skin, SaveDir: k.ScreenDumpDir,
		StartView: resourceForm(k.DefaultView), LogWrap: k.Logger.TextWrap, LogTimestamps: k.Logger.ShowTime}
	if k.Logger.DisableAutoscroll != nil {
		follow := !*k.Logger.DisableAutoscroll
		s.LogFollow = &follow
	}
	for _, n := range []struct {
		name string
		v    *int
		set  *int
	}{{"k9s.logger.buffer", k.Logger.Buffer, &s.LogLines}, {"k9s.logger.tail", int64ToInt(k.Logger.Tail), &s.LogTail}} {
		if n.v == nil {
			continue
		}
		if *n.v < 1 || *n.v > maxLogLines {
			return Settings{}, f, Problem{Path: f.Path, Text: fmt.Sprintf("%s: %d is not between 1 and %d", n.name, *n.v, maxLogLines)}
		}
		*n.set = *n.v
	}
	if s.Skin != "" && !skinName.MatchString(s.Skin) {
		return Settings{}, f, Problem{Path: f.Path, Text: fmt.Sprintf("k9s.ui.skin: %q is not a skin's name (skins/NAME.yaml)", s.Skin)}
	}
	return s, f, nil
}

// maxLogLines is k9s's bound on logger.buffer and logger.tail (its MaxLogThreshold).
const maxLogLines = 5000

// skinName is what a skin may be called: a file name in skins/, without folders.
var skinName = regexp.MustCompile(`^[\w][\w.\-]*$`)

func int64ToInt(v *int64) *int {
	if v == nil {
		return nil
	}
	n := int(max(min(*v, 1<<31), -1<<31))
	return &n
}

// contextFile is k9s's per-context file, clusters/CLUSTER/CONTEXT/config.yaml:
//
//	k9s:
//	  cluster: prod
//	  readOnly: true
//	  skin: red
//	  namespace:
//	    active: shop
//	  view:
//	    active: deploy
type contextFile struct {
	K9s struct {
		ReadOnly  *bool  `json:"readOnly"`
		Skin      string `json:"skin"`
		Namespace struct {
			Active string `json:"active"`
		} `json:"namespace"`
		View struct {
			Active string `json:"active"`
		} `json:"view"`
	} `json:"k9s"`
}

// ContextSettings are a kubeconfig context's own settings; they win over config.yaml's.
type ContextSettings struct {
	// ReadOnly refuses every write in this context (k9s.readOnly).
	ReadOnly *bool
	// Skin names this context's skin (k9s.skin).
	Skin string
	// Namespace is the namespace to start in when the kubeconfig context names none ("all": every
	// namespace); View the command line to start with (k9s.namespace.active, k9s.view.active).
	Namespace, View string
}

// LoadContextSettings reads the file of the kubeconfig context named context, of cluster: kscope's
// clusters/CLUSTER/CONTEXT/config.yaml, else k9s's (under Dirs.K9sData). ':' and '/' in the names become
// '-', as k9s writes them.
func LoadContextSettings(d Dirs, cluster, context string) (ContextSettings, File, error) {
	sub := filepath.Join("clusters", sanitize(cluster), sanitize(context))
	in := Dirs{KScope: filepath.Join(d.KScope, sub)}
	if d.K9sData != "" {
		in.K9s = filepath.Join(d.K9sData, sub)
	}
	f := in.find("context config", "config.yaml")
	var raw contextFile
	if err := read(f, &raw); err != nil {
		return ContextSettings{}, f, err
	}
	k := raw.K9s
	s := ContextSettings{ReadOnly: k.ReadOnly, Skin: k.Skin, Namespace: k.Namespace.Active, View: resourceForm(k.View.Active)}
	if s.Skin != "" && !skinName.MatchString(s.Skin) {
		return ContextSettings{}, f, Problem{Path: f.Path, Text: fmt.Sprintf("k9s.skin: %q is not a skin's name (skins/NAME.yaml)", s.Skin)}
	}
	return s, f, nil
}

// unsafePath are the characters k9s replaces in cluster and context names to make folder names.
var unsafePath = regexp.MustCompile(`[:/]+`)

func sanitize(name string) string { return unsafePath.ReplaceAllString(name, "-") }
