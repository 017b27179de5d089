package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	rbacv1ac "k8s.io/client-go/applyconfigurations/rbac/v1"
	apiregv1 "k8s.io/kube-aggregator/pkg/apis/apiregistration/v1"
	apiregv1ac "k8s.io/kube-aggregator/pkg/client/applyconfiguration/apiregistration/v1"
	aggregator "k8s.io/kube-aggregator/pkg/client/clientset_generated/clientset"
)

// metrics-server runs on loopback as the aggregated API v1beta1.metrics.k8s.io. The apiserver reaches it
// through an ExternalName Service (kube-system/metrics-server → 127.0.0.1; the aggregator resolves such a
// Service to its name and the APIService's port, so no Endpoints — which may not hold loopback addresses —
// and no --enable-aggregator-routing), verifying its serving certificate for metrics-server.kube-system.svc
// against the cluster CA in the APIService's caBundle. It scrapes kwok's kubelet server for every node.

const (
	metricsAPIService = "v1beta1.metrics.k8s.io"
	// metricsResolution is metrics-server's scrape interval (its minimum): `kubectl top` answers for a new
	// pod after two scrapes.
	metricsResolution = 10 * time.Second
)

func metricsServerArgs(l layout, c credentials, p ports) []string {
	kubeconfig := l.state("metrics-server.kubeconfig")
	return []string{
		"--bind-address", "127.0.0.1", "--secure-port", strconv.Itoa(p.MetricsServer),
		"--tls-cert-file", c.metricsCert, "--tls-private-key-file", c.metricsKey,
		"--kubeconfig", kubeconfig, "--authentication-kubeconfig", kubeconfig, "--authorization-kubeconfig", kubeconfig,
		"--node-selector", "type=" + demoNodes().kind,
		"--kubelet-preferred-address-types", "InternalIP", "--kubelet-use-node-status-port",
		"--kubelet-certificate-authority", c.caCert,
		"--kubelet-client-certificate", c.kubeletClientCert, "--kubelet-client-key", c.kubeletClientKey,
		"--metric-resolution", metricsResolution.String(), "--kubelet-request-timeout", "5s", "--profiling=false",
	}
}

// metricsServerReady succeeds once metrics-server serves its API to a request as the aggregator sends it: with
// the front proxy's client certificate and the user in headers (which it honours only once it has read the
// front-proxy CA from the apiserver; until then it answers 403, and the aggregator retries only seconds later).
func metricsServerReady(ctx context.Context, c credentials, p ports) error {
	cert, err := tls.LoadX509KeyPair(c.frontProxyClientCert, c.frontProxyClientKey)
	if err != nil {
		return fmt.Errorf("load the front proxy's client certificate: %w", err)
	}
	header := http.Header{"X-Remote-User": {"devcluster"}, "X-Remote-Group": {"system:masters"}}
	return getOK(ctx, c, &cert, fmt.Sprintf("https://127.0.0.1:%d/apis/metrics.k8s.io/v1beta1", p.MetricsServer), header)
}

// registerMetricsAPI applies the Service, APIService and the ClusterRole that lets the view role read
// metrics (as metrics-server's own manifests do), then waits until the aggregator finds the API available.
func registerMetricsAPI(ctx context.Context, l layout, c credentials, p ports) error {
	cc, err := newClusterClients(l)
	if err != nil {
		return err
	}
	apply := metav1.ApplyOptions{FieldManager: "devcluster", Force: true}
	// The pid annotation changes the Service whenever metrics-server restarts: that makes the aggregator
	// check the APIService at once, instead of on its next retry, seconds after (when it found it down).
	pid, _ := runningPid(l, "metrics-server")
	svc := corev1ac.Service("metrics-server", "kube-system").WithLabels(map[string]string{"app": "metrics-server"}).
		WithAnnotations(map[string]string{"devcluster.kscope/metrics-server-pid": strconv.Itoa(pid)}).
		WithSpec(corev1ac.ServiceSpec().WithType(corev1.ServiceTypeExternalName).WithExternalName("127.0.0.1").
			WithPorts(corev1ac.ServicePort().WithName("https").WithPort(int32(p.MetricsServer))))
	if _, err := cc.typed.CoreV1().Services("kube-system").Apply(ctx, svc, apply); err != nil {
		return fmt.Errorf("apply the metrics-server Service: %w", err)
	}
	reader := rbacv1ac.ClusterRole("system:aggregated-metrics-reader").WithLabels(map[string]string{
		"rbac.authorization.k8s.io/aggregate-to-view": "true", "rbac.authorization.k8s.io/aggregate-to-edit": "true",
		"rbac.authorization.k8s.io/aggregate-to-admin": "true",
	}).WithRules(rbacv1ac.PolicyRule().WithAPIGroups("metrics.k8s.io").WithResources("pods", "nodes").
		WithVerbs("get", "list", "watch"))
	if _, err := cc.typed.RbacV1().ClusterRoles().Apply(ctx, reader, apply); err != nil {
		return fmt.Errorf("apply the metrics reader ClusterRole: %w", err)
	}
	ca, err := os.ReadFile(c.caCert)
	if err != nil {
		return err
	}
	agg, err := aggregator.NewForConfig(cc.config)
	if err != nil {
		return err
	}
	api := apiregv1ac.APIService(metricsAPIService).WithLabels(map[string]string{"app": "metrics-server"}).
		WithSpec(apiregv1ac.APIServiceSpec().WithGroup("metrics.k8s.io").WithVersion("v1beta1").
			WithService(apiregv1ac.ServiceReference().WithNamespace("kube-system").WithName("metrics-server").
				WithPort(int32(p.MetricsServer))).
			WithCABundle(ca...).WithGroupPriorityMinimum(100).WithVersionPriority(100))
	if _, err := agg.ApiregistrationV1().APIServices().Apply(ctx, api, apply); err != nil {
		return fmt.Errorf("apply the APIService %s: %w", metricsAPIService, err)
	}
	return waitAPIServiceAvailable(ctx, l, agg)
}

// waitAPIServiceAvailable waits until the metrics APIService is Available, so that discovery right after
// `up` lists metrics.k8s.io instead of failing on it.
func waitAPIServiceAvailable(ctx context.Context, l layout, agg aggregator.Interface) error {
	deadline := time.Now().Add(60 * time.Second)
	last := "not yet checked"
	for {
		api, err := agg.ApiregistrationV1().APIServices().Get(ctx, metricsAPIService, metav1.GetOptions{})
		if err == nil {
			for _, cond := range api.Status.Conditions {
				if cond.Type == apiregv1.Available {
					if cond.Status == apiregv1.ConditionTrue {
						return nil
					}
					last = cond.Reason + ": " + cond.Message
				}
			}
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("APIService %s not available after 60s (%s); metrics-server log: %s (%s)", metricsAPIService,
				last, logTail(l.logFile("metrics-server")), l.logFile("metrics-server"))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
