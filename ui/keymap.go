package ui

import "kscope/ui/keymap"

// globalBindings are the keys that work in every view, after the view's own: kscope's, then the configured
// hotkeys (those that override the views' keys are found before them, and listed here too).
func (a *App) globalBindings() []keymap.Binding {
	return append(append([]keymap.Binding{
		commandKey(a.opts.Registered).Bind(a.openCommandBar),
		keymap.Keys.Global.Back.Bind(a.escape),
		keymap.Keys.Global.Move.Bind(nil),
		keymap.Keys.Global.Quit.Bind(a.Stop),
	}, a.hotkeysFirst...), a.hotkeys...)
}

// HelpBinding opens the help screen for the top view.
func (a *App) HelpBinding() keymap.Binding {
	return keymap.Keys.Views.Help.Bind(a.showHelp)
}

// QuitBinding is `q` (not in the picker, where letters filter).
func (a *App) QuitBinding() keymap.Binding {
	return keymap.Keys.Views.Quit.Bind(a.Stop)
}
