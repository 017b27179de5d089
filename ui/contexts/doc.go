// Package contexts is the contexts screen (`:ctx` without a name): the kubeconfig's contexts with their
// cluster, user, namespace and whether kscope's files ask for read-only there, the current one marked and
// selected; Enter switches to the selected one. It implements ui.Screen, asks only ui.Navigator and the two
// functions it is given, and is registered in ui.Options.Registered (Spec: it plays ui.Roles.Contexts). UI goroutine
// only, but for the reading of the kubeconfig, which runs on a goroutine of its own.
package contexts
