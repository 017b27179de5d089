package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	nodefast "sigs.k8s.io/kwok/kustomize/stage/node/fast"
	podfast "sigs.k8s.io/kwok/kustomize/stage/pod/fast"
)

func etcdArgs(l layout, p ports) []string {
	client := fmt.Sprintf("http://127.0.0.1:%d", p.EtcdClient)
	peer := fmt.Sprintf("http://127.0.0.1:%d", p.EtcdPeer)
	return []string{
		"--name", "devcluster", "--data-dir", l.state("etcd"),
		"--listen-client-urls", client, "--advertise-client-urls", client,
		"--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
		"--initial-cluster", "devcluster=" + peer,
		"--unsafe-no-fsync", "--quota-backend-bytes", strconv.Itoa(8 << 30), "--log-level", "warn",
	}
}

func apiserverArgs(l layout, c credentials, p ports) []string {
	return []string{
		"--etcd-servers", fmt.Sprintf("http://127.0.0.1:%d", p.EtcdClient),
		"--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", strconv.Itoa(p.APIServer),
		"--cert-dir", l.state("apiserver-certs"), "--tls-cert-file", c.serverCert, "--tls-private-key-file", c.serverKey,
		"--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file", c.saPub, "--service-account-signing-key-file", c.saKey,
		"--token-auth-file", c.tokenFile, "--authorization-mode", "RBAC",
		"--service-cluster-ip-range", "10.0.0.0/24", "--endpoint-reconciler-type", "none",
		"--max-requests-inflight", "1000", "--max-mutating-requests-inflight", "500",
		"--profiling=false",
		"--audit-policy-file", l.state("audit-policy.yaml"), "--audit-log-path", l.logFile("audit"),
		"--audit-log-format", "json", "--audit-log-maxsize", "200", "--audit-log-maxbackup", "1",
	}
}

// auditPolicy records every request of the users viewer and tester (metadata only), so that tests can count
// what a client sent: retries under RBAC denial, or writes that --readonly must never send.
const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Metadata
  users: [viewer, tester]
- level: None
`

func writeAuditPolicy(l layout) error {
	return os.WriteFile(l.state("audit-policy.yaml"), []byte(auditPolicy), 0o644)
}

func controllerManagerArgs(l layout, c credentials) []string {
	return []string{
		"--kubeconfig", l.kubeconfig(), "--leader-elect=false", "--secure-port", "0",
		"--service-account-private-key-file", c.saKey, "--root-ca-file", c.caCert,
		"--use-service-account-credentials=false", "--kube-api-qps", "200", "--kube-api-burst", "400",
		"--concurrent-deployment-syncs", "10", "--concurrent-replicaset-syncs", "10",
		// kwok renews the fake nodes' leases, but on a loaded 2-core machine a renewal can come late; with the
		// default grace period the node lifecycle controller would then mark every pod NotReady for good (kwok
		// does not undo it). The controller itself must run: it lifts the not-ready taint from new nodes.
		"--node-monitor-grace-period", "10m",
	}
}

func schedulerArgs(l layout) []string {
	return []string{"--kubeconfig", l.kubeconfig(), "--leader-elect=false", "--secure-port", "0"}
}

func kwokArgs(l layout, p ports) []string {
	return []string{
		"--kubeconfig", l.kubeconfig(), "--config", l.state("kwok-stages.yaml"),
		"--manage-all-nodes=false", "--manage-nodes-with-annotation-selector", "kwok.x-k8s.io/node=fake",
		"--server-address", fmt.Sprintf("127.0.0.1:%d", p.Kwok),
	}
}

// writeKwokStages writes kwok's own "fast" stages: nodes become Ready, pods Running, Job pods Completed.
func writeKwokStages(l layout) error {
	stages := []string{nodefast.DefaultNodeInit, podfast.DefaultPodReady, podfast.DefaultPodComplete, podfast.DefaultPodDelete}
	for i, s := range stages {
		stages[i] = strings.TrimSpace(s)
	}
	return os.WriteFile(l.state("kwok-stages.yaml"), []byte(strings.Join(stages, "\n---\n")+"\n"), 0o644)
}

// writeKubeconfig writes the cluster's kubeconfig with the contexts admin (current), viewer and tester.
func writeKubeconfig(l layout, c credentials, p ports) error {
	ca, err := os.ReadFile(c.caCert)
	if err != nil {
		return err
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["devcluster"] = &clientcmdapi.Cluster{Server: apiURL(p), CertificateAuthorityData: ca}
	for user, token := range map[string]string{"admin": c.adminToken, "viewer": c.viewerToken, "tester": c.testerToken} {
		cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
		cfg.Contexts[user] = &clientcmdapi.Context{Cluster: "devcluster", AuthInfo: user}
	}
	cfg.CurrentContext = "admin"
	return clientcmd.WriteToFile(*cfg, l.kubeconfig())
}

// httpReady GETs url (with the admin token for the apiserver) and succeeds on 200.
func httpReady(ctx context.Context, url string, c credentials) error {
	pool := x509.NewCertPool()
	if ca, err := os.ReadFile(c.caCert); err == nil {
		pool.AppendCertsFromPEM(ca)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	if strings.HasPrefix(url, "https:") {
		req.Header.Set("Authorization", "Bearer "+c.adminToken)
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s", url, resp.Status, oneLine(string(body)))
	}
	return nil
}
