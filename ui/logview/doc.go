// Package logview is the logs screen (`l` on a pod, a workload or a service; `p`: the previous instances):
// the lines of a pod's containers, or of every pod a workload selects, live, as kubectl logs -f --tail 200
// (--prefix for several containers) shows them, with search, a filter that hides the lines not matching
// (`!` inverting it; new lines too), k9s's time ranges (0 the last lines, 1 to 5 since 1m to 1h, 6 all: the
// logs are read again from there), JSON lines shown indented or as chosen fields (`J`; copy and save keep
// the lines as read), follow, timestamps, wrap, copy and save.
// Package logs keeps and reads the lines (logs.Ring, logs.Follower, logs.Sink); this package draws them
// (logPane, only the rows on screen), follows the pods a workload's selector matches as they come and go
// (logPods, over a watch of them), and asks which container when a pod has several.
//
// It implements ui.Screen, asks the app only for what ui.Navigator offers, and is registered in
// ui.Options.Registered (Spec: Open plays ui.Roles.Logs; one line in the program); ui never imports it and binds `l` and `p` only
// when it is registered. A logs view of one pod is a plugins.Subject (the containers' plugins) and a
// ui.SkinnedScreen (the skin's logs background).
//
// Goroutines: everything runs on the UI goroutine but the followers (one per container, on goroutines of
// their own through Navigator.Go, into the view's logs.Sink), the loop that takes their lines to the UI
// goroutine at most once per Navigator.SpaceRedraw, the watch of a workload's pods and the reads of objects
// (answered through Navigator.Update).
package logview
