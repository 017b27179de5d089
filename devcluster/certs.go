package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"strings"
	"time"
)

// credentials are the files the control plane authenticates with, generated once per cluster state.
type credentials struct {
	caCert, serverCert, serverKey string // TLS: a private CA and the apiserver's serving pair
	saKey, saPub                  string // service-account token signing key pair
	tokenFile                     string // static token users for --token-auth-file
	adminToken, viewerToken       string
	testerToken                   string // an admin whose requests the audit log records
}

func credentialFiles(l layout) credentials {
	return credentials{
		caCert: l.state("pki/ca.crt"), serverCert: l.state("pki/apiserver.crt"), serverKey: l.state("pki/apiserver.key"),
		saKey: l.state("pki/sa.key"), saPub: l.state("pki/sa.pub"), tokenFile: l.state("pki/tokens.csv"),
	}
}

// ensureCredentials creates the CA, serving certificate, service-account keys and tokens unless present,
// and loads the tokens.
func ensureCredentials(l layout) (credentials, error) {
	c := credentialFiles(l)
	if _, err := os.Stat(c.tokenFile); err != nil {
		if err := os.MkdirAll(l.state("pki"), 0o700); err != nil {
			return c, err
		}
		if err := writePKI(c); err != nil {
			return c, fmt.Errorf("generate certificates: %w", err)
		}
		tokens := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n%s,viewer,viewer,\n", randomToken(), randomToken())
		if err := os.WriteFile(c.tokenFile, []byte(tokens), 0o600); err != nil {
			return c, err
		}
	}
	if err := ensureTesterToken(c.tokenFile); err != nil {
		return c, err
	}
	data, err := os.ReadFile(c.tokenFile)
	if err != nil {
		return c, err
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
		}
	}
	if c.adminToken == "" || c.viewerToken == "" || c.testerToken == "" {
		return c, fmt.Errorf("%s lacks the admin or viewer token; run `devcluster down --wipe`", c.tokenFile)
	}
	return c, nil
}

// ensureTesterToken adds the audited admin user "tester" to a token file written before it existed.
func ensureTesterToken(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if strings.Contains(string(data), ",tester,") {
		return nil
	}
	line := fmt.Sprintf("%s,tester,tester,\"system:masters\"\n", randomToken())
	return os.WriteFile(path, append(data, line...), 0o600)
}

func writePKI(c credentials) error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kscope-devcluster-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	ca, _ := x509.ParseCertificate(caDER)
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "kube-apiserver"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, ca, &srvKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	saPub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return err
	}
	for path, block := range map[string]*pem.Block{
		c.caCert:     {Type: "CERTIFICATE", Bytes: caDER},
		c.serverCert: {Type: "CERTIFICATE", Bytes: srvDER},
		c.serverKey:  ecKeyBlock(srvKey),
		c.saKey:      ecKeyBlock(saKey),
		c.saPub:      {Type: "PUBLIC KEY", Bytes: saPub},
	} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			return err
		}
	}
	return nil
}

func ecKeyBlock(key *ecdsa.PrivateKey) *pem.Block {
	der, _ := x509.MarshalECPrivateKey(key)
	return &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
