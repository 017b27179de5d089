package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestExtraClusterNames: the second cluster keeps the names a running devcluster was started with (its
// components, flags and etcd prefix unchanged, so an `up` of this version does not restart it), and the
// third and fourth follow the same pattern.
func TestExtraClusterNames(t *testing.T) {
	l := newLayout(t.TempDir())
	p := ports{APIServer: 1000, APIServer2: 2000, APIServers: []int{3000, 4000}}
	tests := []struct {
		n                                  int
		context, apiServer, cm, prefix, cl string
		port                               int
	}{
		{2, "second", "kube-apiserver-2", "kube-controller-manager-2", "/second-cluster", "devcluster-2", 2000},
		{3, "third", "kube-apiserver-3", "kube-controller-manager-3", "/third-cluster", "devcluster-3", 3000},
		{4, "fourth", "kube-apiserver-4", "kube-controller-manager-4", "/fourth-cluster", "devcluster-4", 4000},
	}
	all := extraClusters(99)
	if len(all) != len(tests) {
		t.Fatalf("extraClusters(99) = %v, want clusters 2 to %d", all, maxClusters)
	}
	for i, tt := range tests {
		e := all[i]
		got := []string{e.context, e.apiServer(), e.controllerManager(), e.prefix(), e.cluster()}
		want := []string{tt.context, tt.apiServer, tt.cm, tt.prefix, tt.cl}
		if e.n != tt.n || !slices.Equal(got, want) || e.port(p) != tt.port {
			t.Errorf("cluster %d: %v port %d, want %v port %d", tt.n, got, e.port(p), want, tt.port)
		}
		if b := binaryOf(tt.apiServer); b != "kube-apiserver" {
			t.Errorf("binaryOf(%s) = %s", tt.apiServer, b)
		}
		if b := binaryOf(tt.cm); b != "kube-controller-manager" {
			t.Errorf("binaryOf(%s) = %s", tt.cm, b)
		}
		for _, name := range []string{tt.apiServer, tt.cm} {
			if !slices.Contains(componentNames(), name) {
				t.Errorf("componentNames lacks %s: down would not stop it", name)
			}
		}
		args := strings.Join(extraAPIServerArgs(l, credentials{}, p, e), " ")
		for _, flag := range []string{"--secure-port " + strconv.Itoa(tt.port), "--etcd-prefix " + tt.prefix,
			"--cert-dir " + l.state("apiserver-"+strconv.Itoa(tt.n)+"-certs"), "--audit-log-path " + l.logFile("audit-"+strconv.Itoa(tt.n))} {
			if !strings.Contains(args, flag) {
				t.Errorf("cluster %d's API server lacks %q: %s", tt.n, flag, args)
			}
		}
		cm := strings.Join(extraControllerManagerArgs(l, credentials{}, e), " ")
		if !strings.Contains(cm, "--kubeconfig "+l.state(tt.context+".kubeconfig")) {
			t.Errorf("cluster %d's controller manager: %s", tt.n, cm)
		}
	}
	for _, name := range []string{"kube-apiserver", "etcd", podServer, "kube-apiserver-9"} {
		if b := binaryOf(name); b != name {
			t.Errorf("binaryOf(%s) = %s, want itself", name, b)
		}
	}
}

// TestExtraClusterComponents: up starts the extra clusters asked for, in componentNames' order.
func TestExtraClusterComponents(t *testing.T) {
	l := newLayout(t.TempDir())
	p := ports{APIServer2: 2000, APIServers: []int{3000}}
	for _, clusters := range []int{2, 3} {
		var names []string
		for _, c := range clusterComponents(l, credentials{}, p, 4, clusters) {
			names = append(names, c.name)
		}
		var inOrder []string
		for _, name := range componentNames() {
			if slices.Contains(names, name) {
				inOrder = append(inOrder, name)
			}
		}
		if !slices.Equal(names, inOrder) {
			t.Errorf("%d clusters: components %v not in componentNames' order", clusters, names)
		}
		has3 := slices.Contains(names, "kube-apiserver-3")
		if has3 != (clusters == 3) || !slices.Contains(names, "kube-controller-manager-2") {
			t.Errorf("%d clusters: components %v", clusters, names)
		}
	}
}

// TestPortsOfExtraClusters: the ports of a running cluster are kept, a third cluster's is added, and a port
// in use is reported before its API server starts.
func TestPortsOfExtraClusters(t *testing.T) {
	l := newLayout(t.TempDir())
	if err := os.MkdirAll(l.stateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	old := `{"etcdClient": 1, "etcdPeer": 2, "apiServer": 3, "kwok": 4, "metricsServer": 5, "podServer": 6, "apiServer2": 7}`
	if err := os.WriteFile(filepath.Join(l.stateDir(), "ports.json"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadOrPickPorts(l, 2)
	if err != nil || p.APIServer2 != 7 || len(p.APIServers) != 0 {
		t.Fatalf("2 clusters: %+v %v", p, err)
	}
	p, err = loadOrPickPorts(l, 3)
	if err != nil || p.APIServer2 != 7 || p.EtcdClient != 1 || len(p.APIServers) != 1 || p.APIServers[0] == 0 {
		t.Fatalf("3 clusters: %+v %v", p, err)
	}
	data, _ := os.ReadFile(filepath.Join(l.stateDir(), "ports.json"))
	var kept ports
	if err := json.Unmarshal(data, &kept); err != nil || kept.APIServers[0] != p.APIServers[0] || kept.APIServer2 != 7 {
		t.Fatalf("ports.json: %s", data)
	}
	if again, _ := loadOrPickPorts(l, 2); len(again.APIServers) != 1 || again.APIServers[0] != p.APIServers[0] {
		t.Errorf("an `up` of fewer clusters dropped the third's port: %+v", again)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p.APIServers[0] = ln.Addr().(*net.TCPAddr).Port
	if err := checkPortsFree("kube-apiserver-3", p); err == nil {
		t.Errorf("checkPortsFree(kube-apiserver-3) did not see its port %d in use", p.APIServers[0])
	}
	if err := checkPortsFree("kube-controller-manager-3", p); err != nil {
		t.Errorf("checkPortsFree(kube-controller-manager-3): %v", err)
	}
}
