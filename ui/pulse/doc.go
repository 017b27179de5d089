// Package pulse is the pulse screen (`i` on a table): the informers behind the table at work — their lists
// (duration, bytes, rows), resourceVersion, watch state and uptime, events per second, relists and
// reconnects with their causes. It is the first screen in a package of its own: it implements ui.Screen,
// asks the app only for what ui.Navigator offers, and declares itself in Spec (its key on live tables), which
// the program registers in ui.Options.Registered (one line); ui never imports it.
package pulse
