// Command patchload changes the pods of one namespace at a fixed rate, for benchmarks: each patch sets the
// pod's status.reason (which the STATUS column of `kubectl get pods`, kscope and k9s shows) to a new value.
//
//	patchload --namespace bench-10000 --rate 200 --for 20s [--skip a,b] [--kubeconfig FILE]
//
// It lists the pod names once, then patches them in a shuffled round-robin from a pool of workers fed by a
// ticker; a tick that finds every worker busy is counted as dropped rather than queued, so the achieved
// rate is reported honestly. The summary goes to stdout as one line of key=value pairs.
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// options are patchload's flags.
type options struct {
	kubeconfig string
	namespace  string
	rate       int
	duration   time.Duration
	workers    int
	prefix     string
	skip       string
}

func main() {
	var o options
	flag.StringVar(&o.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig file")
	flag.StringVar(&o.namespace, "namespace", "", "namespace whose pods are patched (required)")
	flag.IntVar(&o.rate, "rate", 200, "patches per second")
	flag.DurationVar(&o.duration, "for", 20*time.Second, "how long to patch")
	flag.IntVar(&o.workers, "workers", 64, "concurrent requests")
	flag.StringVar(&o.prefix, "prefix", "L", "prefix of the status.reason values written")
	flag.StringVar(&o.skip, "skip", "", "comma-separated pod names never to patch")
	flag.Parse()
	if err := o.run(); err != nil {
		fmt.Fprintf(os.Stderr, "patchload: %s\n", err)
		os.Exit(1)
	}
}

func (o *options) run() error {
	if o.namespace == "" || o.rate <= 0 || o.workers <= 0 {
		return fmt.Errorf("--namespace is required; --rate and --workers must be positive")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", o.kubeconfig)
	if err != nil {
		return fmt.Errorf("kubeconfig: %w", err)
	}
	cfg.QPS, cfg.Burst = float32(2*o.rate), 2*o.rate
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	names, err := podNames(ctx, cfg, o.namespace, o.skip)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("no pods to patch in namespace %s", o.namespace)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	res := o.patch(ctx, client, names)
	fmt.Printf("patches=%d errors=%d dropped=%d elapsed_s=%.2f rate=%.1f p50_ms=%.1f p99_ms=%.1f\n",
		res.ok, res.errors, res.dropped, res.elapsed.Seconds(), float64(res.ok)/res.elapsed.Seconds(),
		res.percentile(0.50), res.percentile(0.99))
	if res.firstErr != nil {
		fmt.Fprintf(os.Stderr, "patchload: first error: %s\n", res.firstErr)
	}
	return nil
}

// podNames lists the names of the pods in namespace (metadata only, in pages), without those in skip,
// shuffled.
func podNames(ctx context.Context, cfg *rest.Config, namespace, skip string) ([]string, error) {
	mc, err := metadata.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("metadata client: %w", err)
	}
	skipped := map[string]bool{}
	for _, s := range strings.Split(skip, ",") {
		if s != "" {
			skipped[s] = true
		}
	}
	pods := mc.Resource(corev1.SchemeGroupVersion.WithResource("pods")).Namespace(namespace)
	var names []string
	opts := metav1.ListOptions{Limit: 5000}
	for {
		list, err := pods.List(ctx, opts)
		if err != nil {
			return nil, fmt.Errorf("list pods in %s: %w", namespace, err)
		}
		for _, item := range list.Items {
			if !skipped[item.Name] {
				names = append(names, item.Name)
			}
		}
		if list.Continue == "" {
			break
		}
		opts.Continue = list.Continue
	}
	rand.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	return names, nil
}

// result sums up a patch run.
type result struct {
	ok, errors, dropped int64
	elapsed             time.Duration
	latencies           []time.Duration
	firstErr            error
}

func (r *result) percentile(p float64) float64 {
	if len(r.latencies) == 0 {
		return 0
	}
	slices.Sort(r.latencies)
	i := min(len(r.latencies)-1, int(p*float64(len(r.latencies))))
	return float64(r.latencies[i].Microseconds()) / 1000
}

// patch sends o.rate patches a second for o.duration (or until ctx ends) and waits for those in flight.
func (o *options) patch(ctx context.Context, client kubernetes.Interface, names []string) *result {
	ctx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	jobs := make(chan int64, o.workers)
	res := &result{}
	var mu sync.Mutex
	var ok, failed atomic.Int64
	var wg sync.WaitGroup
	pods := client.CoreV1().Pods(o.namespace)
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seq := range jobs {
				name := names[int(seq)%len(names)]
				body := fmt.Sprintf(`{"status":{"reason":"%s%07d"}}`, o.prefix, seq)
				start := time.Now()
				_, err := pods.Patch(context.Background(), name, types.MergePatchType, []byte(body),
					metav1.PatchOptions{}, "status")
				took := time.Since(start)
				mu.Lock()
				if err != nil {
					failed.Add(1)
					if res.firstErr == nil {
						res.firstErr = fmt.Errorf("patch %s/%s: %w", o.namespace, name, err)
					}
				} else {
					ok.Add(1)
					res.latencies = append(res.latencies, took)
				}
				mu.Unlock()
			}
		}()
	}
	fmt.Fprintf(os.Stderr, "patchload: started: %d pods, %d/s for %s\n", len(names), o.rate, o.duration)
	start := time.Now()
	ticker := time.NewTicker(time.Second / time.Duration(o.rate))
	defer ticker.Stop()
	var seq int64
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-ticker.C:
			seq++
			select {
			case jobs <- seq:
			default:
				res.dropped++
			}
		}
	}
	close(jobs)
	wg.Wait()
	res.elapsed = time.Since(start)
	res.ok, res.errors = ok.Load(), failed.Load()
	return res
}
