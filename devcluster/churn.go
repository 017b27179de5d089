package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

var widgetsGVR = schema.GroupVersionResource{Group: "shop.example.com", Version: "v1", Resource: "widgets"}

// churner changes the seeded content, one action per tick in rotation, and appends a line to every pod log
// per tick.
type churner struct {
	cc   *clusterClients
	logs podLogs
	rand *rand.Rand
	tick int
}

func runChurn(ctx context.Context, l layout, args []string) error {
	fs := flag.NewFlagSet("churn", flag.ContinueOnError)
	rate := fs.Float64("rate", 2, "changes per second")
	duration := fs.Duration("for", 0, "how long to churn (0: until interrupted)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *rate <= 0 {
		return fmt.Errorf("--rate must be positive, got %v", *rate)
	}
	cc, err := newClusterClients(l)
	if err != nil {
		return err
	}
	if *duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *duration)
		defer cancel()
	}
	logs, err := newPodLogs(l)
	if err != nil {
		return err
	}
	if err := logs.ensure(time.Now()); err != nil {
		return err
	}
	c := &churner{cc: cc, logs: logs, rand: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))}
	ticker := time.NewTicker(time.Duration(float64(time.Second) / *rate))
	defer ticker.Stop()
	fmt.Fprintf(os.Stderr, "devcluster: churning at %.1f changes/s\n", *rate)
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintf(os.Stderr, "devcluster: churn made %d changes\n", c.tick)
			return nil
		case <-ticker.C:
			if err := c.step(ctx); err != nil && ctx.Err() == nil {
				fmt.Fprintf(os.Stderr, "devcluster: churn: %s\n", oneLine(err.Error()))
			}
		}
	}
}

// step makes one change — scale a deployment, patch a widget's status, add a ConfigMap (dropping old ones),
// or relabel a deployment — and logs a line in every pod.
func (c *churner) step(ctx context.Context) error {
	c.tick++
	if err := c.logs.tick(c.tick, time.Now()); err != nil {
		return err
	}
	switch c.tick % 4 {
	case 0:
		target := []struct{ ns, name string }{{"shop", "frontend"}, {"shop", "api"}, {"web", "blog"}}[c.rand.IntN(3)]
		patch := fmt.Sprintf(`{"spec":{"replicas":%d}}`, 1+c.rand.IntN(5))
		_, err := c.cc.typed.AppsV1().Deployments(target.ns).Patch(ctx, target.name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	case 1:
		name := []string{"gizmo", "sprocket", "flux-capacitor"}[c.rand.IntN(3)]
		patch := fmt.Sprintf(`{"status":{"ready":%t,"builtAt":%q}}`, c.rand.IntN(2) == 0, time.Now().UTC().Format(time.RFC3339))
		_, err := c.cc.dynamic.Resource(widgetsGVR).Namespace("shop").Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}, "status")
		return err
	case 2:
		return c.rotateConfigMaps(ctx)
	default:
		patch := fmt.Sprintf(`{"metadata":{"labels":{"churn":"c%d"}}}`, c.tick)
		_, err := c.cc.typed.AppsV1().Deployments("shop").Patch(ctx, "frontend", types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		return err
	}
}

// rotateConfigMaps creates churn-N in web and keeps at most 5 such ConfigMaps.
func (c *churner) rotateConfigMaps(ctx context.Context) error {
	cms := c.cc.typed.CoreV1().ConfigMaps("web")
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("churn-%d", c.tick), Labels: map[string]string{"churn": "true"}},
		Data:       map[string]string{"at": time.Now().UTC().Format(time.RFC3339Nano)},
	}
	if _, err := cms.Create(ctx, cm, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	list, err := cms.List(ctx, metav1.ListOptions{LabelSelector: "churn=true"})
	if err != nil {
		return err
	}
	items := list.Items
	sort.Slice(items, func(a, b int) bool { return items[a].CreationTimestamp.Before(&items[b].CreationTimestamp) })
	for len(items) > 5 {
		if err := cms.Delete(ctx, items[0].Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		items = items[1:]
	}
	return nil
}
