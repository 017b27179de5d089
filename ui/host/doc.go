// Package host declares Core, the services every part of kscope's UI asks of the app alike (its context and
// supervised goroutines, the UI goroutine, the prompt line, the cluster). It is a leaf under ui/: the parts'
// own Host interfaces (ui/livetable, ui/verbs, ui/plugins, ui/drill) and ui.Navigator embed Core and declare
// only what is theirs, so a reader learns the shared contract once.
package host
