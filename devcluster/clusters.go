package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The extra clusters: tests of several clusters in one table, the demo's `@second` and the benchmark of a
// table over three clusters need clusters other than the first, with objects of the same names that are not
// the same objects. Cluster n (2 to maxClusters) is an API server of its own on the first cluster's etcd
// under a prefix of its own, and a controller manager (service accounts, namespaces, workloads); no nodes,
// no scheduler: its pods stay Pending.
const (
	// maxClusters is the most clusters `up --clusters` starts, the first included.
	maxClusters = 4
	// firstCluster names the first cluster (the one with nodes) in the kubeconfig.
	firstCluster = "devcluster"
)

// extraCluster is one of the clusters 2 to maxClusters.
type extraCluster struct {
	n       int    // its number
	context string // its context (its admin) in the kubeconfig: second, third, fourth
}

// extraClusters are the clusters 2 to upTo (at most maxClusters).
func extraClusters(upTo int) []extraCluster {
	names := []string{"second", "third", "fourth"}
	var out []extraCluster
	for n := 2; n <= min(upTo, maxClusters); n++ {
		out = append(out, extraCluster{n: n, context: names[n-2]})
	}
	return out
}

// apiServer and controllerManager are the cluster's component names (kube-apiserver-2 …).
func (e extraCluster) apiServer() string { return "kube-apiserver-" + strconv.Itoa(e.n) }
func (e extraCluster) controllerManager() string {
	return "kube-controller-manager-" + strconv.Itoa(e.n)
}

// prefix is where the cluster keeps its objects in the shared etcd (/second-cluster …).
func (e extraCluster) prefix() string { return "/" + e.context + "-cluster" }

// cluster names the cluster in the kubeconfig (devcluster-2 …).
func (e extraCluster) cluster() string { return firstCluster + "-" + strconv.Itoa(e.n) }

// kubeconfig is its controller manager's kubeconfig.
func (e extraCluster) kubeconfig(l layout) string { return l.state(e.context + ".kubeconfig") }

// port is the loopback port of its API server (0: none picked yet).
func (e extraCluster) port(p ports) int {
	if e.n == 2 {
		return p.APIServer2
	}
	if i := e.n - 3; i < len(p.APIServers) {
		return p.APIServers[i]
	}
	return 0
}

func (e extraCluster) url(p ports) string { return fmt.Sprintf("https://127.0.0.1:%d", e.port(p)) }

// extraComponentNames are the component names of every possible extra cluster, in start order.
func extraComponentNames() []string {
	var names []string
	for _, e := range extraClusters(maxClusters) {
		names = append(names, e.apiServer(), e.controllerManager())
	}
	return names
}

// extraClusterOf returns the extra cluster whose API server or controller manager component is.
func extraClusterOf(component string) (extraCluster, bool) {
	for _, e := range extraClusters(maxClusters) {
		if component == e.apiServer() || component == e.controllerManager() {
			return e, true
		}
	}
	return extraCluster{}, false
}

// binaryOf is the name of component's executable: the extra clusters' components run the first's binaries.
func binaryOf(component string) string {
	if _, ok := extraClusterOf(component); ok {
		return component[:strings.LastIndexByte(component, '-')]
	}
	return component
}

// runningClusters is the number of the highest cluster with a component running (1: no extra cluster).
func runningClusters(l layout) int {
	n := 1
	for _, e := range extraClusters(maxClusters) {
		for _, name := range []string{e.apiServer(), e.controllerManager()} {
			if _, ok := runningPid(l, name); ok {
				n = e.n
			}
		}
	}
	return n
}

// extraAPIServerArgs are the first API server's flags with the cluster's port, etcd prefix, certificate
// folder and audit log.
func extraAPIServerArgs(l layout, c credentials, p ports, e extraCluster) []string {
	args := apiserverArgs(l, c, p)
	set := func(flag, value string) {
		if i := slices.Index(args, flag); i >= 0 {
			args[i+1] = value
		}
	}
	set("--secure-port", strconv.Itoa(e.port(p)))
	set("--cert-dir", l.state(fmt.Sprintf("apiserver-%d-certs", e.n)))
	set("--audit-log-path", l.logFile(fmt.Sprintf("audit-%d", e.n)))
	return append(args, "--etcd-prefix", e.prefix())
}

// extraControllerManagerArgs are the first controller manager's flags on the cluster's kubeconfig.
func extraControllerManagerArgs(l layout, c credentials, e extraCluster) []string {
	args := controllerManagerArgs(l, c)
	if i := slices.Index(args, "--kubeconfig"); i >= 0 {
		args[i+1] = e.kubeconfig(l)
	}
	return args
}

// writeExtraKubeconfig adds the cluster and its admin context to the kubeconfig at path, and writes its
// controller manager's kubeconfig.
func writeExtraKubeconfig(l layout, c credentials, p ports, e extraCluster, path string) error {
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	ca, err := os.ReadFile(c.caCert)
	if err != nil {
		return err
	}
	cfg.Clusters[e.cluster()] = &clientcmdapi.Cluster{Server: e.url(p), CertificateAuthorityData: ca}
	cfg.AuthInfos[e.context] = &clientcmdapi.AuthInfo{Token: c.adminToken}
	cfg.Contexts[e.context] = &clientcmdapi.Context{Cluster: e.cluster(), AuthInfo: e.context}
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return err
	}
	own := clientcmdapi.NewConfig()
	own.Clusters[e.cluster()] = cfg.Clusters[e.cluster()]
	own.AuthInfos["admin"] = &clientcmdapi.AuthInfo{Token: c.adminToken}
	own.Contexts["admin"] = &clientcmdapi.Context{Cluster: e.cluster(), AuthInfo: "admin"}
	own.CurrentContext = "admin"
	return clientcmd.WriteToFile(*own, e.kubeconfig(l))
}
