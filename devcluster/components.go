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
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
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
		"--token-auth-file", c.tokenFile, "--client-ca-file", c.caCert, "--authorization-mode", "RBAC",
		"--service-cluster-ip-range", "10.0.0.0/24", "--endpoint-reconciler-type", "none",
		"--max-requests-inflight", "1000", "--max-mutating-requests-inflight", "500",
		"--profiling=false",
		"--audit-policy-file", l.state("audit-policy.yaml"), "--audit-log-path", l.logFile("audit"),
		"--audit-log-format", "json", "--audit-log-maxsize", "200", "--audit-log-maxbackup", "1",
		// kwok's kubelet server, for logs, exec and port-forward: at the nodes' InternalIP (127.0.0.1), its
		// serving certificate from the cluster CA; the apiserver presents a client certificate from it.
		"--kubelet-preferred-address-types", "InternalIP", "--kubelet-certificate-authority", c.caCert,
		"--kubelet-client-certificate", c.kubeletClientCert, "--kubelet-client-key", c.kubeletClientKey,
		// The aggregation layer (metrics.k8s.io): the apiserver proxies as front-proxy-client and passes the
		// user in these headers, which metrics-server trusts from the front-proxy CA.
		"--requestheader-client-ca-file", c.frontProxyCA, "--requestheader-allowed-names", "front-proxy-client",
		"--requestheader-username-headers", "X-Remote-User", "--requestheader-group-headers", "X-Remote-Group",
		"--requestheader-extra-headers-prefix", "X-Remote-Extra-",
		"--proxy-client-cert-file", c.frontProxyClientCert, "--proxy-client-key-file", c.frontProxyClientKey,
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
		// kwok posts the fake nodes' status every 20–45 s (its node-heartbeat stage), but on a loaded 2-core
		// machine a heartbeat can come late; with the default grace period the node lifecycle controller would
		// then mark every pod NotReady for good (kwok does not undo it). The controller itself must run: it
		// lifts the not-ready taint from new nodes.
		"--node-monitor-grace-period", "10m",
	}
}

func schedulerArgs(l layout) []string {
	return []string{"--kubeconfig", l.kubeconfig(), "--leader-elect=false", "--secure-port", "0"}
}

// writeKubeconfig writes the cluster's kubeconfig with the contexts admin (current), viewer and tester, and
// those of the extra clusters up to clusters (writeExtraKubeconfig); and metrics-server's own.
func writeKubeconfig(l layout, c credentials, p ports, clusters int) error {
	users := map[string]string{"admin": c.adminToken, "viewer": c.viewerToken, "tester": c.testerToken}
	if err := writeKubeconfigFile(l.kubeconfig(), c, p, users, "admin"); err != nil {
		return err
	}
	for _, e := range extraClusters(clusters) {
		if err := writeExtraKubeconfig(l, c, p, e, l.kubeconfig()); err != nil {
			return err
		}
	}
	metrics := map[string]string{"metrics-server": c.metricsToken}
	return writeKubeconfigFile(l.state("metrics-server.kubeconfig"), c, p, metrics, "metrics-server")
}

// writeKubeconfigFile writes a kubeconfig with a context per user, named after it.
func writeKubeconfigFile(path string, c credentials, p ports, users map[string]string, current string) error {
	ca, err := os.ReadFile(c.caCert)
	if err != nil {
		return err
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[firstCluster] = &clientcmdapi.Cluster{Server: apiURL(p), CertificateAuthorityData: ca}
	for user, token := range users {
		cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{Token: token}
		cfg.Contexts[user] = &clientcmdapi.Context{Cluster: firstCluster, AuthInfo: user}
	}
	cfg.CurrentContext = current
	return clientcmd.WriteToFile(*cfg, path)
}

// httpReady GETs url (with the admin token for the apiserver) and succeeds on 200.
func httpReady(ctx context.Context, url string, c credentials) error {
	header := http.Header{}
	if strings.HasPrefix(url, "https:") {
		header.Set("Authorization", "Bearer "+c.adminToken)
	}
	return getOK(ctx, c, nil, url, header)
}

// getOK GETs url with header, trusting the cluster CA and presenting cert when not nil, and succeeds on 200.
func getOK(ctx context.Context, c credentials, cert *tls.Certificate, url string, header http.Header) error {
	pool := x509.NewCertPool()
	if ca, err := os.ReadFile(c.caCert); err == nil {
		pool.AppendCertsFromPEM(ca)
	}
	tlsConfig := &tls.Config{RootCAs: pool}
	if cert != nil {
		tlsConfig.Certificates = []tls.Certificate{*cert}
	}
	transport := &http.Transport{TLSClientConfig: tlsConfig}
	defer transport.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header = header
	resp, err := (&http.Client{Transport: transport, Timeout: 10 * time.Second}).Do(req)
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
