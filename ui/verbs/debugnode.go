package verbs

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/watch"
)

// startDebugNode asks the image and the profile of row's debug pod (row a node), confirms, then creates it
// in the namespace of the moment and attaches to it once it runs (kubectl debug node/N -it).
func (v *Verbs) startDebugNode(_ discovery.Resource, row *watch.Row) {
	what := "node " + row.Name
	ns := v.Namespace()
	v.askDebugImage(what, func(image string) {
		v.chooseProfile(func(profile string) {
			opts := cluster.DebugOptions{Image: image, Profile: profile}
			question := fmt.Sprintf("Debug node %s?\na pod node-debugger-%s-… (image %s, profile %s) is created on it in namespace %s,"+
				" as kubectl debug node/%s does; it stays until deleted", row.Name, row.Name, image, profile, ns, row.Name)
			v.Confirm(question, "Debug", func() {
				conn := v.Cluster()
				pod := &corev1.Pod{}
				pod.Namespace = ns
				v.debugThenAttach(conn, "debugging "+what, pod, func(ctx context.Context) (string, error) {
					name, err := conn.DebugNode(ctx, row.Name, ns, opts)
					pod.Name = name
					return "debugger", err
				})
			})
		})
	})
}
