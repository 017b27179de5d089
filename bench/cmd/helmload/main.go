// Command helmload writes Helm releases into a cluster by Helm's own SDK (its template engine and storage
// drivers; no helm binary, no chart repository): the demo's releases (`make seed`), or a load for the Helm
// view's bench.
//
//	helmload --demo [--kubeconfig FILE]
//	helmload --namespace NS --releases 1000 --revisions 5 [--parallel 16] [--kubeconfig FILE]
//	helmload --list --namespace NS [--kubeconfig FILE]
//
// The demo (helmtest.Demo): shop/storefront with three revisions, shop/payments with a failed upgrade over its
// install, data/cache stored in ConfigMaps; the objects of each deployed revision are applied too (server-side,
// labelled and annotated as Helm labels what it installs). A revision stored already is left as it is, so a
// second run changes nothing. The load (helmtest.Bulk) writes releases × revisions Secrets in NS.
//
// --list is what `helm list -n NS` does, by the same SDK and nothing else (the Helm view's bench measures it):
// the Secrets driver's action configuration over the kubeconfig, then the list action (deployed and failed
// releases, the latest revision of each). It prints on stdout `releases=N init_s=… run_s=…`: the count listed,
// the configuration's set-up and Run's time.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/release/common"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"kscope/helm/helmtest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "helmload:", err)
		os.Exit(1)
	}
}

func run() error {
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "the kubeconfig file (its current context)")
	demo := flag.Bool("demo", false, "write the demo's releases")
	namespace := flag.String("namespace", "helm-load", "the namespace of the load (it must exist)")
	releases := flag.Int("releases", 0, "how many releases the load writes")
	revisions := flag.Int("revisions", 5, "how many revisions each release of the load has")
	parallel := flag.Int("parallel", 16, "how many revisions the load writes at once")
	list := flag.Bool("list", false, "list the namespace's releases by Helm's list action, timed, and write nothing")
	flag.Parse()
	if *list {
		return listReleases(*kubeconfig, *namespace)
	}
	if !*demo && *releases <= 0 {
		return fmt.Errorf("say --demo, or --releases N")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	if *demo {
		dyn, err := dynamic.NewForConfig(cfg)
		if err != nil {
			return err
		}
		n, err := writeDemo(ctx, client, dyn)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "helmload: %d demo revisions written in %s\n", n, time.Since(start).Round(100*time.Millisecond))
		return nil
	}
	n, err := writeLoad(ctx, client, helmtest.Bulk(*namespace, *releases, *revisions, start), *parallel)
	fmt.Fprintf(os.Stderr, "helmload: %d of %d×%d revisions written in %s\n", n, *releases, *revisions, time.Since(start).Round(100*time.Millisecond))
	return err
}

// writeDemo writes the demo's revisions, then applies the objects of each deployed one.
func writeDemo(ctx context.Context, client kubernetes.Interface, dyn dynamic.Interface) (int, error) {
	written := 0
	for _, r := range helmtest.Demo(time.Now()) {
		rel, ok, err := helmtest.WriteRevision(client, r)
		if err != nil {
			return written, err
		}
		if ok {
			written++
		}
		if r.Status != common.StatusDeployed {
			continue
		}
		for _, doc := range helmtest.ManifestDocuments(rel.Manifest) {
			if err := apply(ctx, dyn, doc); err != nil {
				return written, fmt.Errorf("apply release %s/%s: %w", r.Namespace, r.Name, err)
			}
		}
	}
	return written, nil
}

// apply server-side applies one rendered object of the demo's charts (they render ConfigMaps only).
func apply(ctx context.Context, dyn dynamic.Interface, doc string) error {
	obj := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
		return err
	}
	if obj.GetAPIVersion() != "v1" || obj.GetKind() != "ConfigMap" {
		return fmt.Errorf("the demo's charts render ConfigMaps, not %s %s", obj.GetAPIVersion(), obj.GetKind())
	}
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	_, err := dyn.Resource(gvr).Namespace(obj.GetNamespace()).Apply(ctx, obj.GetName(), obj,
		metav1.ApplyOptions{FieldManager: "helm", Force: true})
	return err
}

// writeLoad writes revs, parallel at a time, and counts those written.
func writeLoad(ctx context.Context, client kubernetes.Interface, revs []helmtest.Revision, parallel int) (int, error) {
	var (
		written  atomic.Int64
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	work := make(chan helmtest.Revision)
	for range max(parallel, 1) {
		wg.Go(func() {
			for r := range work {
				_, ok, err := helmtest.WriteRevision(client, r)
				switch {
				case err != nil:
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				case ok:
					written.Add(1)
				}
			}
		})
	}
	for _, r := range revs {
		select {
		case work <- r:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return int(written.Load()), firstErr
}

// listReleases times Helm's list action on namespace as `helm list -n namespace` runs it (the Secrets driver,
// the default state mask: deployed and failed) and prints what it listed and how long each part took.
func listReleases(kubeconfig, namespace string) error {
	flags := genericclioptions.NewConfigFlags(true)
	flags.KubeConfig, flags.Namespace = &kubeconfig, &namespace
	start := time.Now()
	cfg := action.NewConfiguration(action.ConfigurationSetLogger(slog.DiscardHandler))
	if err := cfg.Init(flags, namespace, "secret"); err != nil {
		return fmt.Errorf("helm configuration for %s: %w", namespace, err)
	}
	initDone := time.Now()
	list := action.NewList(cfg)
	list.SetStateMask()
	rels, err := list.Run()
	if err != nil {
		return fmt.Errorf("list the releases of %s: %w", namespace, err)
	}
	end := time.Now()
	fmt.Printf("releases=%d init_s=%.3f run_s=%.3f\n", len(rels), initDone.Sub(start).Seconds(), end.Sub(initDone).Seconds())
	return nil
}
