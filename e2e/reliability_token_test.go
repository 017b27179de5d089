//go:build e2e

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"kscope/watch"
)

// revocableToken creates, in ns, a ServiceAccount that may read everything (ClusterRole view) and a token for
// it bound to a Secret: deleting the Secret revokes the token at once (the server looks the bound object up).
// It returns the token and the function that revokes it.
func revocableToken(t *testing.T, ns string) (token string, revoke func()) {
	t.Helper()
	cs := kubernetes.NewForConfigOrDie(restConfig(t, "admin"))
	ctx := context.Background()
	sa, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "expiring"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: ns + "-expiring-view"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "view"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: sa.Name, Namespace: ns}}}
	if _, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.RbacV1().ClusterRoleBindings().Delete(context.Background(), binding.Name, metav1.DeleteOptions{})
	})
	anchor, err := cs.CoreV1().Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "token-anchor"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hour := int64(3600)
	tr, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, sa.Name, &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
		ExpirationSeconds: &hour,
		BoundObjectRef:    &authenticationv1.BoundObjectReference{Kind: "Secret", APIVersion: "v1", Name: anchor.Name, UID: anchor.UID},
	}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr.Status.Token, func() {
		if err := cs.CoreV1().Secrets(ns).Delete(context.Background(), anchor.Name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReliabilityTokenRevokedMidSession: the user's token stops being accepted while views are open (the
// Secret it is bound to is deleted, then kube-apiserver restarts, so every watch must reconnect): a one-
// namespace Source and an all-namespaces one end as Unauthorized and stop retrying (the informer returns),
// and kscope's status line says "unauthorized" under the rows it last had.
func TestReliabilityTokenRevokedMidSession(t *testing.T) {
	serial(t, "stops kube-apiserver; creates a ClusterRoleBinding")
	ns := testNamespace(t)
	token, revoke := revocableToken(t, ns)
	kubeconfig := kubeconfigWithUsers(t, ns, map[string]*clientcmdapi.AuthInfo{"expiring": {Token: token}})
	cfg := &rest.Config{Host: restConfig(t, "admin").Host, BearerToken: token,
		TLSClientConfig: restConfig(t, "admin").TLSClientConfig}
	var srcs []*watch.Source
	for _, spec := range []watch.Spec{
		{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespaced: true, Namespace: ns},
		{GVR: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, Namespaced: true},
	} {
		srcs = append(srcs, startSource(t, cfg, spec))
	}
	ui := startUI(t, "--kubeconfig", kubeconfig, "--context", "expiring", "configmaps")
	ui.waitFor("configmaps("+ns+")[", "synced")

	revoke()
	start := stopAPIServer(t)
	start()
	for _, src := range srcs {
		select {
		case <-src.Done():
		case <-time.After(120 * time.Second):
			t.Fatalf("%v: still running 120 s after the token was revoked; state %s (%s)", src.Spec(), src.State().Phase, src.State().Message)
		}
		if st := src.State(); st.Phase != watch.Unauthorized {
			t.Errorf("%v: state %s (%s), want unauthorized", src.Spec(), st.Phase, st.Message)
		} else {
			t.Logf("%v: %s: %s", src.Spec(), st.Phase, st.Message)
		}
	}
	// The rows it had stay on screen; the status line says why they no longer change.
	scr := ui.waitUntil("the status line says unauthorized", func(scr string) bool {
		return strings.HasPrefix(lastLine(scr), "unauthorized  ")
	})
	t.Logf("kscope: %q", lastLine(scr))
}

// lastLine returns the last line of screen that is not blank (the status line).
func lastLine(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, " \n"), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
