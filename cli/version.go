package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/discovery"

	"kscope/kube"
)

// versionOptions prints kscope's version and the API server's.
type versionOptions struct {
	flags   *genericclioptions.ConfigFlags
	streams genericiooptions.IOStreams
	client  bool
	version string // kscope's
	disc    discovery.DiscoveryInterface
	host    string
}

func newVersionCommand(flags *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams, version string) *cobra.Command {
	o := &versionOptions{flags: flags, streams: streams, version: version}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the kscope version and the server version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.client, "client", false, "print the client version only (no server needed)")
	return cmd
}

// Complete builds the discovery client unless only the client version is wanted.
func (o *versionOptions) Complete() error {
	if o.client {
		return nil
	}
	cfg, err := o.flags.ToRESTConfig()
	if err != nil {
		return kube.DescribeConfigError(err)
	}
	cfg.Timeout = 15 * time.Second
	o.host = cfg.Host
	o.disc, err = discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return fmt.Errorf("discovery client: %w", err)
	}
	return nil
}

// Run prints the versions, one per line, like kubectl version.
func (o *versionOptions) Run(_ context.Context) error {
	fmt.Fprintf(o.streams.Out, "Client Version: %s\n", clientVersion(o.version))
	if o.client {
		return nil
	}
	info, err := o.disc.ServerVersion()
	if err != nil {
		return kube.DescribeServerError(o.host, err)
	}
	fmt.Fprintf(o.streams.Out, "Server Version: %s\n", info.GitVersion)
	return nil
}

// clientVersion names kscope's version and the client-go it was built with.
func clientVersion(version string) string {
	clientGo := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "k8s.io/client-go" {
				clientGo = dep.Version
			}
		}
	}
	return fmt.Sprintf("kscope %s (client-go %s)", version, clientGo)
}
