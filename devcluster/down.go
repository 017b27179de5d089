package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"
)

func runDown(l layout, args []string) error {
	fs := flag.NewFlagSet("down", flag.ContinueOnError)
	wipe := fs.Bool("wipe", false, "also delete the cluster state (etcd data, certificates, kubeconfig)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := stopAll(l); err != nil {
		return err
	}
	if *wipe {
		if err := os.RemoveAll(l.stateDir()); err != nil {
			return fmt.Errorf("wipe state: %w", err)
		}
		fmt.Fprintf(os.Stderr, "devcluster: removed %s\n", l.stateDir())
	}
	return nil
}

// stopAll stops every running component in reverse start order, so that clients go before the apiserver, and
// the apiserver before etcd.
func stopAll(l layout) error {
	names := componentNames()
	slices.Reverse(names)
	for _, name := range names {
		pid, running := runningPid(l, name)
		if err := stopProcess(l, name, 15*time.Second); err != nil {
			return err
		}
		if running {
			fmt.Fprintf(os.Stderr, "devcluster: stopped %s (pid %d)\n", name, pid)
		}
	}
	return nil
}
