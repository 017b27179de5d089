package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"time"
)

// authority is a certificate authority whose key is at hand.
type authority struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

// leaf describes a certificate to issue: a server's (with its names) or a client's (CN is the user, org the
// group).
type leaf struct {
	cn, org  string
	server   bool
	dns, ips []string
}

func newCA(name string) (authority, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return authority{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serialNumber(), Subject: pkix.Name{CommonName: name},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return authority{}, fmt.Errorf("create CA %s: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	return authority{cert: cert, key: key}, err
}

// loadCA reads a CA's certificate and key written by authority.write.
func loadCA(certFile, keyFile string) (authority, error) {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return authority{}, err
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return authority{}, err
	}
	certBlock, _ := pem.Decode(certPEM)
	keyBlock, _ := pem.Decode(keyPEM)
	if certBlock == nil || keyBlock == nil {
		return authority{}, fmt.Errorf("read CA %s: not PEM", certFile)
	}
	cert, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		return authority{}, fmt.Errorf("read CA %s: %w", certFile, err)
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		return authority{}, fmt.Errorf("read CA key %s: %w", keyFile, err)
	}
	return authority{cert: cert, key: key}, nil
}

func (a authority) write(certFile, keyFile string) error {
	if err := writePEM(certFile, &pem.Block{Type: "CERTIFICATE", Bytes: a.cert.Raw}); err != nil {
		return err
	}
	return writePEM(keyFile, ecKeyBlock(a.key))
}

// issueMissing issues lf into certFile and keyFile unless both exist.
func (a authority) issueMissing(lf leaf, certFile, keyFile string) error {
	_, certErr := os.Stat(certFile)
	_, keyErr := os.Stat(keyFile)
	if certErr == nil && keyErr == nil {
		return nil
	}
	return a.issue(lf, certFile, keyFile)
}

// issue signs a new key pair for lf and writes the certificate and key.
func (a authority) issue(lf leaf, certFile, keyFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serialNumber(), Subject: pkix.Name{CommonName: lf.cn},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		DNSNames: lf.dns,
	}
	if lf.org != "" {
		tmpl.Subject.Organization = []string{lf.org}
	}
	if lf.server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	}
	for _, ip := range lf.ips {
		tmpl.IPAddresses = append(tmpl.IPAddresses, net.ParseIP(ip))
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &key.PublicKey, a.key)
	if err != nil {
		return fmt.Errorf("issue certificate %s: %w", lf.cn, err)
	}
	if err := writePEM(certFile, &pem.Block{Type: "CERTIFICATE", Bytes: der}); err != nil {
		return err
	}
	return writePEM(keyFile, ecKeyBlock(key))
}

// writeKeyPair writes a new signing key and its public key (for service-account tokens).
func writeKeyPair(keyFile, pubFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	pub, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	if err := writePEM(keyFile, ecKeyBlock(key)); err != nil {
		return err
	}
	return writePEM(pubFile, &pem.Block{Type: "PUBLIC KEY", Bytes: pub})
}

func writePEM(path string, block *pem.Block) error {
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func ecKeyBlock(key *ecdsa.PrivateKey) *pem.Block {
	der, _ := x509.MarshalECPrivateKey(key)
	return &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}
}

// serialNumber is a random 128-bit certificate serial number, unique per certificate as TLS clients expect.
func serialNumber() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}
