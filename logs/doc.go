// Package logs holds what a logs view knows of the logs it shows, apart from drawing them: the lines kept
// (Ring), the followers that read each container's log (Follower) from a cluster.Streams log stream, the
// Sink between them, and which pods and containers a view follows (PodSelector, PodContainers and the
// DefaultContainer kubectl picks, ContainerEnded). It draws nothing and never imports the terminal interface
// (package ui), which uses it.
//
// How lines flow: each container's log is read by a Follower on a goroutine of its own, with the kubelet's
// timestamps, so that the view can show or hide them and a reconnect (after a broken stream, with a backoff
// of 1 s doubling to 30 s) asks only for what came after the last line read and skips the lines it already
// has. A line longer than 1 MiB is cut, and the cut is said on the line. The followers of one view feed one
// Sink; the view's goroutine takes from it (Sink.Take, when Sink.Notify fires) into a Ring, which keeps the
// last Capacity lines and at most ByteBudget bytes of them, counts those dropped, numbers every line so that
// a position stays valid as older lines go, marks the lines matching a search and hides those a Filter
// (ParseFilter: a regular expression, `!` inverting it) does not keep, the new ones as they come. A Range
// says how much of a log a follower reads first (the last lines, those since a time ago, or all). RenderJSON
// shows a line that is a JSON object indented or as chosen top-level fields (JSONMode), FieldsSeen lists
// the fields of such lines; the lines kept are never changed.
//
// Goroutine contracts:
//
//   - Ring is not safe for concurrent use: one goroutine (the UI's) owns it.
//   - Sink is safe for concurrent use: followers add to it and set their states from their goroutines, one
//     consumer takes. It holds at most its limit of lines and ByteBudget bytes waiting; older lines are
//     counted as dropped (Ring.Lose), as the ring would drop them anyway.
//   - Follower.Run blocks until its context ends, the log is read (not following), or Follower.Ended says to
//     stop; its goroutine is the only one that uses the Follower. Open and Ended are called on it and may
//     block (ContainerEnded makes one request).
//   - A Filter is immutable: safe for concurrent use; a Range and a JSONMode are plain values, RenderJSON,
//     JSONKeys and FieldsSeen plain functions. ParseFilter and CompileSmartCase are plain functions.
//   - PodSelector, PodContainers and DefaultContainer are plain functions; ContainerEnded blocks for one
//     request.
package logs
