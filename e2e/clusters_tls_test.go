//go:build e2e

package e2e

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"
)

// kubeconfigWithUntrustedCA writes a copy of the devcluster's kubeconfig with two more contexts,
// untrusted-admin and untrusted-second, on the two clusters' servers as admin and second, whose clusters name a
// certificate authority that signed neither server: only --insecure-skip-tls-verify reaches them.
func kubeconfigWithUntrustedCA(t *testing.T) string {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ca := filepath.Join(dir, "other-ca.crt")
	writeFile(t, ca, string(selfSignedCA(t)))
	path := filepath.Join(dir, "kubeconfig")
	data, err := os.ReadFile(env.kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, like string }{{"untrusted-admin", "admin"}, {"untrusted-second", "second"}} {
		server := cfg.Clusters[cfg.Contexts[c.like].Cluster].Server
		kubectl(t, "--kubeconfig", path, "config", "set-cluster", c.name, "--server", server,
			"--certificate-authority", ca, "--embed-certs")
		kubectl(t, "--kubeconfig", path, "config", "set-context", c.name, "--cluster", c.name,
			"--user", cfg.Contexts[c.like].AuthInfo)
	}
	return path
}

// selfSignedCA returns a new certificate authority's certificate, PEM-encoded.
func selfSignedCA(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "kscope-e2e-other-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

// TestUIClustersInsecureStaysWithStartContext: kscope started on untrusted-admin with
// --insecure-skip-tls-verify reaches that context (its CA signed no server), but the flag does not follow to
// the other contexts of `configmaps @untrusted-admin,@second,@untrusted-second`: second (whose CA is right)
// syncs, untrusted-second keeps its certificate check and is unreachable.
func TestUIClustersInsecureStaysWithStartContext(t *testing.T) {
	parallel(t)
	ns := testNamespace(t)
	secondNamespace(t, ns)
	kubeconfig := kubeconfigWithUntrustedCA(t)
	s := startUI(t, "--kubeconfig", kubeconfig, "--context", "untrusted-admin", "--insecure-skip-tls-verify", "-n", ns,
		"configmaps", "@untrusted-admin,@second,@untrusted-second")
	s.waitFor("untrusted-admin synced", "second synced", "untrusted-second unreachable")
}
