package readonly

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/cert"
)

// ServingCert is the proxy's TLS certificate for 127.0.0.1: self-signed, made once per run (children
// trust it through their kubeconfig). kubectl sends a bearer token only over TLS, so the proxy needs one.
// Making it takes a fifth of a second: make it while something else waits (the connection).
type ServingCert struct {
	pem  []byte
	cert tls.Certificate
}

// NewServingCert makes a certificate and key for 127.0.0.1.
func NewServingCert() (*ServingCert, error) {
	certPEM, keyPEM, err := cert.GenerateSelfSignedCertKey("127.0.0.1", []net.IP{net.IPv4(127, 0, 0, 1)}, nil)
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: certificate: %w", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: certificate: %w", err)
	}
	return &ServingCert{pem: certPEM, cert: pair}, nil
}

// Refusal is a request of a child process that the proxy refused.
type Refusal struct {
	Method, Path string
}

// String says what was refused, as the status line shows it.
func (r Refusal) String() string {
	return fmt.Sprintf("read-only mode: refused a child process's %s %s", r.Method, r.Path)
}

// Proxy is the server kscope's children (plugins, the editor) reach the cluster through in read-only mode:
// it listens on 127.0.0.1 on a port of its own (TLS, ServingCert), takes only requests that carry its token (a random one,
// never a credential of the user), and forwards them with kscope's credentials over the read-only
// transport. What Allowed refuses never leaves the process: it is answered 403 with a Status whose message
// is kscope's (kubectl prints it), and reported. Its methods are safe for concurrent use.
type Proxy struct {
	srv     *http.Server
	url     string
	ca      []byte
	token   string
	refused func(Refusal)
	forward *httputil.ReverseProxy
}

// StartProxy starts a proxy to the server cfg names, with cfg's credentials and the read-only transport
// (Wrap), serving with sc. refused, if not nil, is called for each refused request, on the proxy's goroutines: it must not
// block. Close stops it.
func StartProxy(cfg *rest.Config, sc *ServingCert, refused func(Refusal)) (*Proxy, error) {
	wrapped := Wrap(cfg)
	rt, err := rest.TransportFor(wrapped)
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: transport: %w", err)
	}
	target, _, err := rest.DefaultServerUrlFor(wrapped)
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: server: %w", err)
	}
	token := make([]byte, 32)
	if _, err := rand.Read(token); err != nil {
		return nil, fmt.Errorf("read-only proxy: token: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("read-only proxy: %w", err)
	}
	p := &Proxy{url: "https://" + ln.Addr().String(), ca: sc.pem, token: hex.EncodeToString(token), refused: refused}
	p.forward = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Header.Del("Authorization") // the proxy's token; the transport adds the user's credentials
		},
		Transport:     rt,
		FlushInterval: -1, // watches and log streams as they come
		ErrorHandler:  p.failed,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{sc.cert}, MinVersion: tls.VersionTLS12}}
	go func() { _ = p.srv.ServeTLS(ln, "", "") }()
	return p, nil
}

// URL is the proxy's address (https://127.0.0.1:PORT), CA the certificate a client trusts it by, and
// Token the bearer token it requires.
func (p *Proxy) URL() string   { return p.url }
func (p *Proxy) CA() []byte    { return p.ca }
func (p *Proxy) Token() string { return p.token }

// Close stops listening and ends the connections in flight. It is idempotent.
func (p *Proxy) Close() error {
	if err := p.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ServeHTTP forwards r when it carries the proxy's token and Allowed takes it; it refuses it otherwise.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	got := []byte(r.Header.Get("Authorization"))
	if subtle.ConstantTimeCompare(got, []byte("Bearer "+p.token)) != 1 {
		writeStatus(w, http.StatusUnauthorized, metav1.StatusReasonUnauthorized,
			"kscope's read-only proxy: this request does not carry the proxy's token")
		return
	}
	if !Allowed(r) {
		p.refuse(w, r)
		return
	}
	p.forward.ServeHTTP(w, r)
}

// failed answers a request the transport could not send: refused (the read-only transport), or the
// server out of reach.
func (p *Proxy) failed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.As(err, new(*RefusedError)) {
		p.refuse(w, r)
		return
	}
	if errors.Is(err, context.Canceled) {
		return // the child went away
	}
	writeStatus(w, http.StatusBadGateway, metav1.StatusReasonServiceUnavailable, "kscope's read-only proxy: "+err.Error())
}

// refuse answers r 403 with kscope's message and reports it.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request) {
	if p.refused != nil {
		p.refused(Refusal{Method: r.Method, Path: r.URL.Path})
	}
	writeStatus(w, http.StatusForbidden, metav1.StatusReasonForbidden, (&RefusedError{Method: r.Method, Path: r.URL.Path}).Error())
}

// writeStatus answers with a metav1.Status, which kubectl prints as "Error from server (Reason): message".
func writeStatus(w http.ResponseWriter, code int, reason metav1.StatusReason, message string) {
	status := metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure, Code: int32(code), Reason: reason, Message: message,
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(status)
}
