// Package objectview is the views of one object: its YAML (`y`, enter: live, managedFields hidden and a
// Secret's values masked unless toggled, the lines an update changed highlighted for a while, `/` search,
// copy) and its description as `kubectl describe` prints it (`d`: described again when the object changes,
// at most once a second), each under a panel of the object's health and conditions (package health).
//
// The object keys these views offer (edit, delete, scale, restart, shell, logs, port-forward, owner, events,
// tree…), with their access checks and read-only refusals, stay in ui: ui hands each view a ui.ObjectView
// with them, the openers of the history, blame and YAML screens, and the recording of the object's versions.
// The views implement ui.Screen, ask only ui.Navigator, and are registered in ui.Options.Registered by the
// program (Spec: they play ui.Roles.YAML and Describe; one line); ui never imports this package.
package objectview
