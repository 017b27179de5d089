// Package rollouts is the rollouts screen (shift-r on a deployment, statefulset or
// daemonset): the workload's revisions as `kubectl rollout history` lists them (REVISION, CHANGE-CAUSE, AGE,
// IMAGES, the current one marked), the diff of a revision's pod template against the current one
// (enter), and the undo to a revision as `kubectl rollout undo --to-revision` does it
// (u): checked by the ui.WriteGuard the session hands it (read-only mode, the server's access
// review), tried on the server as a dry run to name what would change, asked first (Cancel focused), then
// written with the workload's UID as precondition.
//
// It reads the cluster through cluster.Rollouts (Navigator.Cluster) off the UI goroutine and asks the app
// only what ui.Navigator offers; it declares itself in Spec (its key on workloads and its own keys), which the
// program registers in ui.Options.Registered. The revisions are
// read when the screen comes on top and again after an undo; they are not watched.
package rollouts
