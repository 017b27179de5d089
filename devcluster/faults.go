package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// runStop stops one component (for fault tests); `devcluster up` starts it again.
func runStop(l layout, args []string) error {
	if len(args) != 1 || !slices.Contains(append(components, "kwok"), args[0]) {
		return fmt.Errorf("usage: devcluster stop <%s>", "etcd|kube-apiserver|kube-controller-manager|kube-scheduler|kwok")
	}
	pid, running := runningPid(l, args[0])
	if !running {
		return fmt.Errorf("%s is not running", args[0])
	}
	if err := stopProcess(l, args[0], 15*time.Second); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "devcluster: stopped %s (pid %d); `devcluster up` starts it again\n", args[0], pid)
	return nil
}

// runCompact compacts etcd's history up to its current revision, so that watches resuming from an older
// resourceVersion get 410 Gone and must relist.
func runCompact(ctx context.Context, l layout) error {
	p, err := loadOrPickPorts(l)
	if err != nil {
		return err
	}
	client, err := clientv3.New(clientv3.Config{
		Endpoints:   []string{fmt.Sprintf("http://127.0.0.1:%d", p.EtcdClient)},
		DialTimeout: 5 * time.Second,
		Logger:      nil,
	})
	if err != nil {
		return fmt.Errorf("connect to etcd: %w", err)
	}
	defer client.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	status, err := client.Status(ctx, client.Endpoints()[0])
	if err != nil {
		return fmt.Errorf("etcd status: %w", err)
	}
	rev := status.Header.Revision
	if _, err := client.Compact(ctx, rev, clientv3.WithCompactPhysical()); err != nil {
		return fmt.Errorf("compact etcd at revision %d: %w", rev, err)
	}
	fmt.Fprintf(os.Stderr, "devcluster: compacted etcd at revision %d\n", rev)
	return nil
}
