// Package versions is the screens of an object's versions: the history (`h` on a table row or in a YAML
// view: the versions kscope has seen, newest first, naming each one's writer from managedFields —
// history.LastWriter — and the fields that changed), the diff of one version from the one before (Enter
// there: history.DiffLines, unchanged runs folded), and the blame (`b` in a YAML view: the owners
// history.FieldOwners decodes from managedFields, each YAML line mapped to its field path by yamllines.go,
// list items keyed as the managers' sets key them).
//
// The screens draw what package history holds; the app hands the history screen its versions as a function
// (ui.Roles.History) and the blame its object (ui.Roles.Blame). They implement ui.Screen, ask
// only ui.Navigator, and are registered in ui.Options.Registered by the program (Spec, one line); ui never imports
// this package.
package versions
