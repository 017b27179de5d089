package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
)

// credentials are the files the control plane authenticates with, generated once per cluster state.
type credentials struct {
	caCert, caKey, serverCert, serverKey string // TLS: a private CA and the apiserver's serving pair
	saKey, saPub                         string // service-account token signing key pair
	// kwok's kubelet server: its serving pair (127.0.0.1, from the CA) and the client pair the apiserver and
	// metrics-server present to it.
	kubeletCert, kubeletKey             string
	kubeletClientCert, kubeletClientKey string
	metricsCert, metricsKey             string // metrics-server's serving pair (metrics-server.kube-system.svc)
	// The aggregation layer: a CA of its own for the front proxy, and the client pair the apiserver proxies
	// aggregated API requests with (metrics-server trusts the user in its request headers).
	frontProxyCA, frontProxyCAKey             string
	frontProxyClientCert, frontProxyClientKey string
	tokenFile                                 string // static token users for --token-auth-file
	adminToken, viewerToken                   string
	testerToken                               string // an admin whose requests the audit log records
	metricsToken                              string // metrics-server's own user
}

func credentialFiles(l layout) credentials {
	p := func(name string) string { return l.state("pki/" + name) }
	return credentials{
		caCert: p("ca.crt"), caKey: p("ca.key"), serverCert: p("apiserver.crt"), serverKey: p("apiserver.key"),
		saKey: p("sa.key"), saPub: p("sa.pub"), tokenFile: p("tokens.csv"),
		kubeletCert: p("kubelet.crt"), kubeletKey: p("kubelet.key"),
		kubeletClientCert: p("apiserver-kubelet-client.crt"), kubeletClientKey: p("apiserver-kubelet-client.key"),
		metricsCert: p("metrics-server.crt"), metricsKey: p("metrics-server.key"),
		frontProxyCA: p("front-proxy-ca.crt"), frontProxyCAKey: p("front-proxy-ca.key"),
		frontProxyClientCert: p("front-proxy-client.crt"), frontProxyClientKey: p("front-proxy-client.key"),
	}
}

// ensureCredentials creates the CAs, certificates, service-account keys and tokens unless present, and
// loads the tokens. renewed reports that the CA was made anew for an existing cluster state (one written
// before the CA's key was kept): processes that trust the old CA must restart.
func ensureCredentials(l layout) (c credentials, renewed bool, err error) {
	c = credentialFiles(l)
	if err := os.MkdirAll(l.state("pki"), 0o700); err != nil {
		return c, false, err
	}
	_, tokenErr := os.Stat(c.tokenFile)
	if _, keyErr := os.Stat(c.caKey); keyErr != nil {
		if err := writeControlPlanePKI(c); err != nil {
			return c, false, fmt.Errorf("generate certificates: %w", err)
		}
		renewed = tokenErr == nil
	}
	if err := writeStreamPKI(c); err != nil {
		return c, false, fmt.Errorf("generate certificates: %w", err)
	}
	if tokenErr != nil {
		tokens := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n%s,viewer,viewer,\n", randomToken(), randomToken())
		if err := os.WriteFile(c.tokenFile, []byte(tokens), 0o600); err != nil {
			return c, false, err
		}
	}
	for _, user := range []string{"tester", "metrics-server"} {
		if err := ensureAdminToken(c.tokenFile, user); err != nil {
			return c, false, err
		}
	}
	return c, renewed, loadTokens(&c)
}

// loadTokens reads the users' tokens from the token file.
func loadTokens(c *credentials) error {
	data, err := os.ReadFile(c.tokenFile)
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Split(line, ",")
		if len(fields) < 2 {
			continue
		}
		switch fields[1] {
		case "admin":
			c.adminToken = fields[0]
		case "viewer":
			c.viewerToken = fields[0]
		case "tester":
			c.testerToken = fields[0]
		case "metrics-server":
			c.metricsToken = fields[0]
		}
	}
	if c.adminToken == "" || c.viewerToken == "" || c.testerToken == "" || c.metricsToken == "" {
		return fmt.Errorf("%s lacks a user's token; run `devcluster down --wipe`", c.tokenFile)
	}
	return nil
}

// ensureAdminToken adds the admin (system:masters) user to a token file written before that user existed.
func ensureAdminToken(path, user string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if strings.Contains(string(data), ","+user+",") {
		return nil
	}
	line := fmt.Sprintf("%s,%s,%s,\"system:masters\"\n", randomToken(), user, user)
	return os.WriteFile(path, append(data, line...), 0o600)
}

// writeControlPlanePKI writes the cluster CA (with its key), the apiserver's serving pair and, unless
// present, the service-account key pair.
func writeControlPlanePKI(c credentials) error {
	ca, err := newCA("kscope-devcluster-ca")
	if err != nil {
		return err
	}
	if err := ca.write(c.caCert, c.caKey); err != nil {
		return err
	}
	srv := leaf{cn: "kube-apiserver", server: true,
		dns: []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		ips: []string{"127.0.0.1", "10.0.0.1"}}
	if err := ca.issue(srv, c.serverCert, c.serverKey); err != nil {
		return err
	}
	if _, err := os.Stat(c.saPub); err == nil {
		return nil
	}
	return writeKeyPair(c.saKey, c.saPub)
}

// writeStreamPKI writes, where missing, the pairs of kwok's kubelet server, metrics-server and the
// aggregation layer's front proxy.
func writeStreamPKI(c credentials) error {
	ca, err := loadCA(c.caCert, c.caKey)
	if err != nil {
		return err
	}
	leaves := []struct {
		leaf
		cert, key string
	}{
		{leaf{cn: "kwok-kubelet", server: true, ips: []string{"127.0.0.1"}}, c.kubeletCert, c.kubeletKey},
		{leaf{cn: "kube-apiserver-kubelet-client", org: "system:masters"}, c.kubeletClientCert, c.kubeletClientKey},
		{leaf{cn: "metrics-server", server: true, dns: []string{"metrics-server.kube-system.svc"},
			ips: []string{"127.0.0.1"}}, c.metricsCert, c.metricsKey},
	}
	for _, lf := range leaves {
		if err := ca.issueMissing(lf.leaf, lf.cert, lf.key); err != nil {
			return err
		}
	}
	if _, err := os.Stat(c.frontProxyCAKey); err != nil {
		fp, err := newCA("kscope-devcluster-front-proxy-ca")
		if err != nil {
			return err
		}
		if err := fp.write(c.frontProxyCA, c.frontProxyCAKey); err != nil {
			return err
		}
	}
	fp, err := loadCA(c.frontProxyCA, c.frontProxyCAKey)
	if err != nil {
		return err
	}
	return fp.issueMissing(leaf{cn: "front-proxy-client"}, c.frontProxyClientCert, c.frontProxyClientKey)
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
