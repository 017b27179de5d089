package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The second cluster: tests of several clusters in one table, and the demo's `@second`, need a cluster other
// than the first, with objects of the same names that are not the same objects.
const (
	secondAPIServer         = "kube-apiserver-2"
	secondControllerManager = "kube-controller-manager-2"
	// secondPrefix is where the second cluster keeps its objects in the shared etcd.
	secondPrefix = "/second-cluster"
	// secondContext names the second cluster's context (its admin) in the kubeconfig; secondCluster its cluster.
	secondContext = "second"
	secondCluster = "devcluster-2"
)

// binaryOf is the name of component's executable: the second cluster's run the first's binaries.
func binaryOf(component string) string {
	switch component {
	case secondAPIServer:
		return "kube-apiserver"
	case secondControllerManager:
		return "kube-controller-manager"
	}
	return component
}

// secondAPIServerArgs are the first API server's flags with the second's port, etcd prefix, certificate
// folder and audit log.
func secondAPIServerArgs(l layout, c credentials, p ports) []string {
	args := apiserverArgs(l, c, p)
	set := func(flag, value string) {
		if i := slices.Index(args, flag); i >= 0 {
			args[i+1] = value
		}
	}
	set("--secure-port", strconv.Itoa(p.APIServer2))
	set("--cert-dir", l.state("apiserver-2-certs"))
	set("--audit-log-path", l.logFile("audit-2"))
	return append(args, "--etcd-prefix", secondPrefix)
}

// secondControllerManagerArgs are the first controller manager's flags on the second cluster's kubeconfig.
func secondControllerManagerArgs(l layout, c credentials) []string {
	args := controllerManagerArgs(l, c)
	if i := slices.Index(args, "--kubeconfig"); i >= 0 {
		args[i+1] = l.state("second.kubeconfig")
	}
	return args
}

// writeSecondKubeconfig adds the second cluster and its admin context to the kubeconfig at path, and writes
// the second controller manager's kubeconfig.
func writeSecondKubeconfig(l layout, c credentials, p ports, path string) error {
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	ca, err := os.ReadFile(c.caCert)
	if err != nil {
		return err
	}
	cfg.Clusters[secondCluster] = &clientcmdapi.Cluster{Server: secondAPIURL(p), CertificateAuthorityData: ca}
	cfg.AuthInfos[secondContext] = &clientcmdapi.AuthInfo{Token: c.adminToken}
	cfg.Contexts[secondContext] = &clientcmdapi.Context{Cluster: secondCluster, AuthInfo: secondContext}
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		return err
	}
	own := clientcmdapi.NewConfig()
	own.Clusters[secondCluster] = cfg.Clusters[secondCluster]
	own.AuthInfos["admin"] = &clientcmdapi.AuthInfo{Token: c.adminToken}
	own.Contexts["admin"] = &clientcmdapi.Context{Cluster: secondCluster, AuthInfo: "admin"}
	own.CurrentContext = "admin"
	return clientcmd.WriteToFile(*own, l.state("second.kubeconfig"))
}
