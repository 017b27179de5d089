package kube

import (
	"context"
	"slices"
	"sync"
	"time"

	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	authorizationclient "k8s.io/client-go/kubernetes/typed/authorization/v1"

	"kscope/cluster"
)

// rulesTTL is how long the rules the server listed for a namespace answer the access questions asked in it:
// a permission granted or withdrawn shows within a minute (each screen keeps its answers for its life).
const rulesTTL = time.Minute

// accessRules keeps, for the connection, what the user may do in each namespace asked about, as one
// SelfSubjectRulesReview per namespace (issue 51: the key bar of one pods table asked seven
// SelfSubjectAccessReviews, one round trip each, on every start). Safe for concurrent use; the zero value
// is ready.
type accessRules struct {
	mu   sync.Mutex
	byNS map[string]*nsRules
}

// nsRules is one namespace's review: done is closed once status and err are set, and they are not
// changed after.
type nsRules struct {
	done   chan struct{}
	at     time.Time
	status authorizationv1.SubjectRulesReviewStatus
	err    error
}

// get returns the rules of namespace (not "": the server refuses a review of no namespace), asking the server once per rulesTTL while
// concurrent callers wait for that one answer. A failed review is not kept: the next call asks again.
func (r *accessRules) get(ctx context.Context, auth authorizationclient.AuthorizationV1Interface, namespace string) (authorizationv1.SubjectRulesReviewStatus, error) {
	r.mu.Lock()
	if r.byNS == nil {
		r.byNS = map[string]*nsRules{}
	}
	e, ok := r.byNS[namespace]
	if ok && e.at.Add(rulesTTL).Before(time.Now()) {
		ok = false
	}
	if !ok {
		e = &nsRules{done: make(chan struct{}), at: time.Now()}
		r.byNS[namespace] = e
		r.mu.Unlock()
		review := &authorizationv1.SelfSubjectRulesReview{Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: namespace}}
		out, err := auth.SelfSubjectRulesReviews().Create(ctx, review, metav1.CreateOptions{})
		if err == nil {
			e.status = out.Status
		}
		e.err = err
		close(e.done)
		if err != nil {
			r.mu.Lock()
			if r.byNS[namespace] == e {
				delete(r.byNS, namespace)
			}
			r.mu.Unlock()
		}
		return e.status, e.err
	}
	r.mu.Unlock()
	select {
	case <-e.done:
		return e.status, e.err
	case <-ctx.Done():
		return authorizationv1.SubjectRulesReviewStatus{}, ctx.Err()
	}
}

// rulesAnswer answers q from the rules of its namespace: allowed when a rule grants it, denied when no rule
// does and the server said the list is complete; decided is false when the rules cannot tell (an
// authorizer that cannot list what it allows, such as a webhook, makes the list incomplete).
func rulesAnswer(status authorizationv1.SubjectRulesReviewStatus, q cluster.AccessQuery) (ans cluster.AccessAnswer, decided bool) {
	for _, rule := range status.ResourceRules {
		if ruleGrants(rule, q) {
			return cluster.AccessAnswer{Allowed: true}, true
		}
	}
	if status.Incomplete {
		return cluster.AccessAnswer{}, false
	}
	return cluster.AccessAnswer{}, true
}

// ruleGrants tells whether rule grants q, matched as the RBAC authorizer matches a PolicyRule: the verb
// and the group, each or "*"; the resource as "resource" or "resource/subresource", "*", or "*/subresource";
// resource names, when the rule lists any, only for a question about one of them.
func ruleGrants(rule authorizationv1.ResourceRule, q cluster.AccessQuery) bool {
	if !matchesOrAll(rule.Verbs, q.Verb) || !matchesOrAll(rule.APIGroups, q.GVR.Group) {
		return false
	}
	resource := q.GVR.Resource
	if q.Subresource != "" {
		resource += "/" + q.Subresource
	}
	if !slices.ContainsFunc(rule.Resources, func(r string) bool {
		return r == "*" || r == resource || (q.Subresource != "" && r == "*/"+q.Subresource)
	}) {
		return false
	}
	return len(rule.ResourceNames) == 0 || (q.Name != "" && slices.Contains(rule.ResourceNames, q.Name))
}

// matchesOrAll tells whether values holds v or "*".
func matchesOrAll(values []string, v string) bool {
	return slices.Contains(values, "*") || slices.Contains(values, v)
}
