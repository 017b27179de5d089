// Package screenlife is the lifecycle of a live screen (Life): the work it starts the first time it is shown,
// under a context of its own that its Close ends, and the guard of every update its goroutines hand back to
// the UI goroutine, dropped once the screen is closed. The screens in packages of their own under ui/ keep
// one; it asks only ui.Navigator.
package screenlife
