// Package drill decides what Enter opens below an object of a live table, as a k9s user expects it: the rule
// of jumps.yaml for its resource, else the built-in drill-downs (a workload's or a service's pods by their
// selector, a cronjob's jobs by their owner, a node's pods, a pod's containers, a CRD's objects). It reads
// what it needs from the cluster off the UI goroutine and asks its Host to open the table; it draws nothing.
//
// Package ui hosts it (ui imports drill, never the reverse). Everything here runs on the UI goroutine but for
// the work handed to Host.Go.
package drill
