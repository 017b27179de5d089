package cli

import (
	"kscope/columns"
	"kscope/config"
)

// configured is what the configuration files give the UI.
type configured struct {
	aliases config.Aliases
	hotkeys []config.HotKey
	plugins []config.Plugin
	views   columns.Views
	jumps   []config.Jump
}

// loadConfig reads the aliases, hotkeys, plugins, views and jumps files; a file or a rule that cannot be used
// is one line in problems.
func loadConfig(dirs config.Dirs) (configured, []string) {
	var c configured
	var problems []string
	note := func(err error) {
		problems = append(problems, config.Lines(err)...)
	}
	var err error
	c.aliases, _, err = config.LoadAliases(dirs)
	note(err)
	c.hotkeys, _, err = config.LoadHotKeys(dirs)
	note(err)
	c.plugins, _, err = config.LoadPlugins(dirs)
	note(err)
	c.views, _, err = loadViews(dirs)
	note(err)
	c.jumps, _, err = config.LoadJumps(dirs)
	note(err)
	return c, problems
}

// loadViews reads views.yaml and makes its entries ready; a bad entry is a problem of the file.
func loadViews(dirs config.Dirs) (columns.Views, config.File, error) {
	settings, f, err := config.LoadViews(dirs)
	if err != nil {
		return columns.Views{}, f, err
	}
	views, err := columns.NewViews(settings)
	if err != nil {
		return columns.Views{}, f, config.Problem{Path: f.Path, Text: err.Error()}
	}
	return views, f, nil
}
