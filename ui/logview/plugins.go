package logview

import (
	"fmt"
	"strings"
)

// PluginScopes implements plugins.Subject: a logs view of one pod runs the containers' plugins (the names
// k9s's container view answers to); a workload's none.
func (v *View) PluginScopes() []string {
	if v.logs.selector != "" {
		return nil
	}
	return []string{"containers", "container", "co"}
}

// PluginSubject implements plugins.Subject: the pod's container, NAME and CONTAINER the container (several:
// joined with ","), POD the pod, FILTER the search; a workload's logs have none (said on the prompt line).
func (v *View) PluginSubject() (string, map[string]string, bool) {
	if v.logs.selector != "" || v.logs.pod == "" {
		v.nav.Errorf("plugins act on the logs of one pod")
		return "", nil, false
	}
	containers := strings.Join(v.logs.containers, ",")
	env := map[string]string{"NAMESPACE": v.logs.namespace, "POD": v.logs.pod, "CONTAINER": containers, "NAME": containers,
		"RESOURCE_NAME": "containers", "RESOURCE_GROUP": "", "RESOURCE_VERSION": "v1", "FILTER": v.search}
	return fmt.Sprintf("container %s of pod %s", containers, v.logs.pod), env, true
}
