package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/discovery"
	"kscope/kube"
)

// apiResourcesOptions prints the API resources the server serves, exactly as `kubectl api-resources`.
type apiResourcesOptions struct {
	flags   *genericclioptions.ConfigFlags
	streams genericiooptions.IOStreams

	output     string
	noHeaders  bool
	namespaced bool
	apiGroup   string
	verbs      []string
	categories []string
	sortBy     string
	cached     bool

	list    discovery.ListOptions
	printer discovery.ResourcePrinter
	catalog *discovery.Catalog
	host    string
}

func newAPIResourcesCommand(flags *genericclioptions.ConfigFlags, streams genericiooptions.IOStreams) *cobra.Command {
	o := &apiResourcesOptions{flags: flags, streams: streams, namespaced: true}
	cmd := &cobra.Command{
		Use:   "api-resources",
		Short: "Print the API resources the server serves (like kubectl api-resources)",
		Example: `  kscope api-resources
  kscope api-resources -o wide --sort-by=kind
  kscope api-resources --namespaced=false --verbs=list,watch
  kscope api-resources --api-group=apps -o name`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unexpected arguments: %v", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Complete(cmd); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.output, "output", "o", "", "output format: wide or name")
	f.BoolVar(&o.noHeaders, "no-headers", false, "leave out the header line")
	f.BoolVar(&o.namespaced, "namespaced", true, "true: only namespaced resources; false: only cluster-scoped ones (unset: both)")
	f.StringVar(&o.apiGroup, "api-group", "", "only resources of this API group (\"\" is the core group)")
	f.StringSliceVar(&o.verbs, "verbs", nil, "only resources that support all these verbs")
	f.StringSliceVar(&o.categories, "categories", nil, "only resources in all these categories")
	f.StringVar(&o.sortBy, "sort-by", "", "sort by name or kind (default: group, then name)")
	f.BoolVar(&o.cached, "cached", false, "use the discovery cache where it is fresh instead of asking the server")
	return cmd
}

// Complete turns the flags into list and print options; --namespaced and --api-group filter only when set.
func (o *apiResourcesOptions) Complete(cmd *cobra.Command) error {
	cfg, err := o.flags.ToRESTConfig()
	if err != nil {
		return kube.DescribeConfigError(err)
	}
	o.host = cfg.Host
	o.list = discovery.ListOptions{Verbs: o.verbs, Categories: o.categories, SortBy: o.sortBy}
	if cmd.Flags().Changed("api-group") {
		o.list.APIGroup = &o.apiGroup
	}
	if cmd.Flags().Changed("namespaced") {
		o.list.Namespaced = &o.namespaced
	}
	o.printer = discovery.ResourcePrinter{Output: o.output, NoHeaders: o.noHeaders}
	o.catalog = discovery.NewCatalog(o.flags)
	return nil
}

// Validate rejects output formats and sort keys kubectl api-resources rejects.
func (o *apiResourcesOptions) Validate() error {
	if err := o.printer.Validate(); err != nil {
		return err
	}
	return o.list.Validate()
}

// Run reads discovery (from the server unless --cached) and prints the table. When some group-versions
// could not be read it prints the rest, then fails with kubectl's "unable to retrieve the complete list of
// server APIs" error (exit code 1). Group-versions the aggregator marks stale, which kubectl skips without
// a word and without failing, get a warning line each on stderr; the exit code stays kubectl's.
func (o *apiResourcesOptions) Run(ctx context.Context) error {
	read := o.catalog.Refresh
	if o.cached {
		read = o.catalog.Load
	}
	if err := read(ctx); err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return kube.DescribeServerError(o.host, err)
	}
	if err := o.printer.Print(o.streams.Out, o.catalog.List(o.list)); err != nil {
		return err
	}
	var failed []discovery.Unavailable
	for _, u := range o.catalog.Unavailable() {
		if u.Stale {
			fmt.Fprintf(o.streams.ErrOut, "Warning: %s is unavailable: %s\n", u.GroupVersion, u.Reason)
			continue
		}
		failed = append(failed, u)
	}
	if len(failed) > 0 {
		return &discovery.IncompleteError{Unavailable: failed}
	}
	return nil
}
