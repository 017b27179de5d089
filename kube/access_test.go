package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	authorizationclient "k8s.io/client-go/kubernetes/typed/authorization/v1"
	"k8s.io/client-go/rest"

	"kscope/cluster"
)

func TestRulesAnswer(t *testing.T) {
	q := func(verb, resource, sub, name string) cluster.AccessQuery {
		return cluster.AccessQuery{Verb: verb, GVR: schema.GroupVersionResource{Version: "v1", Resource: resource},
			Subresource: sub, Namespace: "shop", Name: name}
	}
	deploy := cluster.AccessQuery{Verb: "patch", GVR: schema.GroupVersionResource{Group: "apps", Version: "v1",
		Resource: "deployments"}, Subresource: "scale", Namespace: "shop"}
	rule := func(verbs, groups, resources, names []string) authorizationv1.ResourceRule {
		return authorizationv1.ResourceRule{Verbs: verbs, APIGroups: groups, Resources: resources, ResourceNames: names}
	}
	all := []string{"*"}
	core := []string{""}
	tests := []struct {
		name       string
		rules      []authorizationv1.ResourceRule
		incomplete bool
		q          cluster.AccessQuery
		allowed    bool
		decided    bool
	}{
		{"cluster-admin", []authorizationv1.ResourceRule{rule(all, all, all, nil)}, false, q("delete", "pods", "", ""), true, true},
		{"the verb", []authorizationv1.ResourceRule{rule([]string{"get", "list"}, core, []string{"pods"}, nil)}, false,
			q("delete", "pods", "", ""), false, true},
		{"the group", []authorizationv1.ResourceRule{rule(all, core, all, nil)}, false, deploy, false, true},
		{"a subresource by name", []authorizationv1.ResourceRule{rule([]string{"create"}, core, []string{"pods/exec"}, nil)}, false,
			q("create", "pods", "exec", ""), true, true},
		{"the resource is not its subresource", []authorizationv1.ResourceRule{rule([]string{"create"}, core, []string{"pods"}, nil)}, false,
			q("create", "pods", "exec", ""), false, true},
		{"*/subresource", []authorizationv1.ResourceRule{rule([]string{"patch"}, []string{"apps"}, []string{"*/scale"}, nil)}, false,
			deploy, true, true},
		{"*/subresource is no resource", []authorizationv1.ResourceRule{rule([]string{"patch"}, core, []string{"*/scale"}, nil)}, false,
			q("patch", "pods", "", ""), false, true},
		{"named objects only: a question about one", []authorizationv1.ResourceRule{rule([]string{"delete"}, core, []string{"pods"}, []string{"web"})}, false,
			q("delete", "pods", "", "web"), true, true},
		{"named objects only: a question about any", []authorizationv1.ResourceRule{rule([]string{"delete"}, core, []string{"pods"}, []string{"web"})}, false,
			q("delete", "pods", "", ""), false, true},
		{"incomplete: a grant still decides", []authorizationv1.ResourceRule{rule(all, core, []string{"pods"}, nil)}, true,
			q("delete", "pods", "", ""), true, true},
		{"incomplete: no grant cannot tell", nil, true, q("delete", "pods", "", ""), false, false},
		{"complete and empty: denied", nil, false, q("delete", "pods", "", ""), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans, decided := rulesAnswer(authorizationv1.SubjectRulesReviewStatus{ResourceRules: tt.rules, Incomplete: tt.incomplete}, tt.q)
			if ans.Allowed != tt.allowed || decided != tt.decided {
				t.Errorf("allowed %v decided %v, want %v %v", ans.Allowed, decided, tt.allowed, tt.decided)
			}
		})
	}
}

// accessServer is an API server that answers rules reviews with rules (incomplete as told) and access
// reviews with allowed, counting both by namespace.
type accessServer struct {
	rules      []authorizationv1.ResourceRule
	incomplete bool
	allowed    bool

	mu      sync.Mutex
	reviews map[string]int // "rules NS" / "access NS" → requests
}

func (s *accessServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	kind := strings.TrimPrefix(r.URL.Path, "/apis/authorization.k8s.io/v1/")
	var body map[string]any
	_ = json.NewDecoder(r.Body).Decode(&body)
	spec, _ := body["spec"].(map[string]any)
	ns, _ := spec["namespace"].(string)
	if attrs, ok := spec["resourceAttributes"].(map[string]any); ok {
		ns, _ = attrs["namespace"].(string)
	}
	s.mu.Lock()
	s.reviews[kind+" "+ns]++
	s.mu.Unlock()
	switch kind {
	case "selfsubjectrulesreviews":
		out := authorizationv1.SelfSubjectRulesReview{Status: authorizationv1.SubjectRulesReviewStatus{
			ResourceRules: s.rules, Incomplete: s.incomplete}}
		out.Kind, out.APIVersion = "SelfSubjectRulesReview", "authorization.k8s.io/v1"
		_ = json.NewEncoder(w).Encode(out)
	case "selfsubjectaccessreviews":
		fmt.Fprintf(w, `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","status":{"allowed":%v}}`, s.allowed)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (s *accessServer) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reviews[key]
}

// accessCluster is a Cluster whose authorization client talks to s.
func accessCluster(t *testing.T, s *accessServer) *Cluster {
	t.Helper()
	s.reviews = map[string]int{}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	cfg := &rest.Config{Host: ts.URL, ContentConfig: rest.ContentConfig{ContentType: "application/json"}} // (the server reads JSON)
	return &Cluster{cfg: cfg, auth: authorizationclient.NewForConfigOrDie(cfg)}
}

// TestCanOneRulesReviewPerNamespace: the questions of a pods table's key bar (seven verbs) cost one rules
// review of the namespace, shared by every later question there, and no access review; where the rules are
// incomplete and grant nothing, the question goes to an access review.
func TestCanOneRulesReviewPerNamespace(t *testing.T) {
	s := &accessServer{rules: []authorizationv1.ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{""}, Resources: []string{"pods", "pods/exec"}}}}
	c := accessCluster(t, s)
	questions := []cluster.AccessQuery{
		{Verb: "delete", GVR: podsGVR}, {Verb: "patch", GVR: podsGVR}, {Verb: "update", GVR: podsGVR},
		{Verb: "create", GVR: podsGVR, Subresource: "exec"}, {Verb: "create", GVR: podsGVR, Subresource: "attach"},
		{Verb: "create", GVR: podsGVR, Subresource: "portforward"}, {Verb: "create", GVR: podsGVR, Subresource: "eviction"},
	}
	var wg sync.WaitGroup
	answers := make([]cluster.AccessAnswer, len(questions))
	for i, q := range questions {
		q.Namespace = "shop"
		wg.Add(1)
		go func() {
			defer wg.Done()
			ans, err := c.Can(context.Background(), q)
			if err != nil {
				t.Errorf("%+v: %v", q, err)
			}
			answers[i] = ans
		}()
	}
	wg.Wait()
	for i, want := range []bool{true, true, true, true, false, false, false} {
		if answers[i].Allowed != want {
			t.Errorf("%s %s/%s: allowed %v, want %v", questions[i].Verb, questions[i].GVR.Resource, questions[i].Subresource, answers[i].Allowed, want)
		}
	}
	if _, err := c.Can(context.Background(), cluster.AccessQuery{Verb: "delete", GVR: podsGVR, Namespace: "shop"}); err != nil {
		t.Fatal(err)
	}
	if n := s.count("selfsubjectrulesreviews shop"); n != 1 {
		t.Errorf("%d rules reviews of shop, want 1", n)
	}
	if n := s.count("selfsubjectaccessreviews shop"); n != 0 {
		t.Errorf("%d access reviews, want none", n)
	}

	// A question of no namespace (a cluster-scoped resource, or all namespaces) goes to an access review: the
	// server lists rules only in a namespace.
	if _, err := c.Can(context.Background(), cluster.AccessQuery{Verb: "delete", GVR: schema.GroupVersionResource{Version: "v1", Resource: "nodes"}}); err != nil {
		t.Fatal(err)
	}
	if n := s.count("selfsubjectrulesreviews "); n != 0 {
		t.Errorf("%d rules reviews of no namespace, want none (the server refuses them)", n)
	}
	if n := s.count("selfsubjectaccessreviews "); n != 1 {
		t.Errorf("%d access reviews of no namespace, want 1", n)
	}

	incomplete := &accessServer{incomplete: true, allowed: true}
	c = accessCluster(t, incomplete)
	ans, err := c.Can(context.Background(), cluster.AccessQuery{Verb: "delete", GVR: podsGVR, Namespace: "shop"})
	if err != nil || !ans.Allowed {
		t.Errorf("incomplete rules: %+v %v, want the access review's allowed", ans, err)
	}
	if n := incomplete.count("selfsubjectaccessreviews shop"); n != 1 {
		t.Errorf("incomplete rules: %d access reviews, want 1", n)
	}
}
