package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// faultComponent returns the one running component named by args, with its pid.
func faultComponent(l layout, command string, args []string) (string, int, error) {
	if len(args) != 1 || !slices.Contains(componentNames(), args[0]) {
		return "", 0, fmt.Errorf("usage: devcluster %s <%s>", command, strings.Join(componentNames(), "|"))
	}
	pid, running := runningPid(l, args[0])
	if !running {
		return "", 0, fmt.Errorf("%s is not running", args[0])
	}
	return args[0], pid, nil
}

// runStop stops one component (for fault tests); `devcluster up` starts it again.
func runStop(l layout, args []string) error {
	name, pid, err := faultComponent(l, "stop", args)
	if err != nil {
		return err
	}
	if err := stopProcess(l, name, 15*time.Second); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "devcluster: stopped %s (pid %d); `devcluster up` starts it again\n", name, pid)
	return nil
}

// runKill kills one component with SIGKILL (a crash: the process gets no chance to shut down) and waits until
// it is gone; `devcluster up` starts it again.
func runKill(l layout, args []string) error {
	name, pid, err := faultComponent(l, "kill", args)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill %s (pid %d): %w", name, pid, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, alive := runningPid(l, name); !alive {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s (pid %d) still running 10s after SIGKILL", name, pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_ = os.Remove(pidFile(l, name))
	fmt.Fprintf(os.Stderr, "devcluster: killed %s (pid %d, SIGKILL); `devcluster up` starts it again\n", name, pid)
	return nil
}

// runCompact compacts etcd's history up to its current revision, so that watches resuming from an older
// resourceVersion get 410 Gone and must relist.
func runCompact(ctx context.Context, l layout) error {
	p, err := loadOrPickPorts(l, 2)
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
