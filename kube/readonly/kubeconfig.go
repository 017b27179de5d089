package readonly

import (
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Names are what a kubeconfig context is called: the context, its cluster and user, and its namespace.
// The child's kubeconfig keeps the user's names, so that a plugin's `--context $CONTEXT` still works.
type Names struct {
	Context, Cluster, User, Namespace string
}

// ChildKubeconfig is the kubeconfig file kscope's children get in read-only mode: in a folder only the
// user can open (0700) that kscope creates, one context that points at a Proxy with the proxy's token,
// and no credential of the user (the proxy holds them). It is not safe for concurrent use.
type ChildKubeconfig struct {
	dir string
}

// NewChildKubeconfig creates the private folder; Remove deletes it.
func NewChildKubeconfig() (*ChildKubeconfig, error) {
	dir, err := os.MkdirTemp("", "kscope-readonly-")
	if err != nil {
		return nil, fmt.Errorf("read-only kubeconfig: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("read-only kubeconfig: %w", err)
	}
	return &ChildKubeconfig{dir: dir}, nil
}

// Path is the file's path (it exists once Point has written it).
func (k *ChildKubeconfig) Path() string { return filepath.Join(k.dir, "kubeconfig") }

// Point writes the file for p, under names (empty names: "kscope-readonly"). The file is replaced at
// once (a child starting meanwhile reads the old file or the new one, never half of one).
func (k *ChildKubeconfig) Point(p *Proxy, names Names) error {
	for _, n := range []*string{&names.Context, &names.Cluster, &names.User} {
		if *n == "" {
			*n = "kscope-readonly"
		}
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[names.Cluster] = &clientcmdapi.Cluster{Server: p.URL(), CertificateAuthorityData: p.CA()}
	cfg.AuthInfos[names.User] = &clientcmdapi.AuthInfo{Token: p.Token()}
	cfg.Contexts[names.Context] = &clientcmdapi.Context{Cluster: names.Cluster, AuthInfo: names.User, Namespace: names.Namespace}
	cfg.CurrentContext = names.Context
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return fmt.Errorf("read-only kubeconfig: %w", err)
	}
	tmp, err := os.CreateTemp(k.dir, "kubeconfig-*")
	if err != nil {
		return fmt.Errorf("read-only kubeconfig: %w", err)
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), k.Path())
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("read-only kubeconfig: %w", err)
	}
	return nil
}

// Remove deletes the folder and the file.
func (k *ChildKubeconfig) Remove() error { return os.RemoveAll(k.dir) }
