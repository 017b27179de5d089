package verbs

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	kubectlutil "k8s.io/kubectl/pkg/util"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/forwards"
	"kscope/ui/keymap"
	"kscope/watch"
)

// forwardAddress is the local address forwards listen on (kubectl port-forward's default is localhost).
const forwardAddress = "127.0.0.1"

var portForwardVerb = verb{key: keymap.Keys.Object.PortForward,
	need:    accessNeed{verb: "create", subresource: "portforward", resource: podsGVR},
	applies: forwardable, start: (*Verbs).startPortForward}

// forwardable: what kubectl port-forward takes here (pods, services, deployments).
func forwardable(res discovery.Resource) error {
	switch {
	case isPods(res), isServices(res), res.Group == "apps" && res.Name == "deployments":
		return nil
	}
	return fmt.Errorf("%s cannot be port-forwarded: only pods, services and deployments can", res.FullName())
}

func isServices(res discovery.Resource) bool { return res.Group == "" && res.Name == "services" }

// forwardPort is one port the user may forward to: how the dialog shows it, the local port it suggests and
// the pod's port it reaches.
type forwardPort struct {
	label     string
	suggested int
	podPort   int
	// container declares the port ("" for a service's); name is the container port's name ("": none).
	container, name string
	// service is the service's port a service's forward reaches (0 for a pod's or a workload's).
	service int32
}

// forwardTarget is the pod a port-forward of an object reaches, and the ports offered.
type forwardTarget struct {
	pod   *corev1.Pod
	ports []forwardPort
}

// startPortForward finds the pod (for a service or a deployment, one of its pods, as kubectl does) and its
// ports, asks which one when there are several, then asks for the local port.
func (v *Verbs) startPortForward(res discovery.Resource, row *watch.Row) {
	v.StartPortForwardTo(res, row, "")
}

// StartPortForwardTo is startPortForward offering only the ports container declares ("": every port). UI
// goroutine.
func (v *Verbs) StartPortForwardTo(res discovery.Resource, row *watch.Row, container string) {
	v.Message("finding the pod of " + row.Name + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (forwardTarget, error) {
		t, err := resolveForward(ctx, c, res, row)
		if container != "" {
			t.ports = slices.DeleteFunc(t.ports, func(p forwardPort) bool { return p.container != container })
		}
		return t, err
	}, func(t forwardTarget, err error) {
		if err != nil {
			v.Errorf("port-forward %s %s: %s", res.Name, row.Key, apierr.OneLine(err.Error()))
			return
		}
		pod := t.pod
		if pod.Status.Phase != corev1.PodRunning {
			v.Errorf("port-forward %s %s: pod %s is %s, not running", res.Name, row.Key, pod.Name, phaseOf(pod))
			return
		}
		v.Message("")
		ask := func(p forwardPort) { v.askLocalPort(forwardTargetOf(res, row, p), pod, p) }
		switch len(t.ports) {
		case 0:
			v.Ask(fmt.Sprintf("port-forward %s/%s (no declared ports) to pod port: ", pod.Namespace, pod.Name), "",
				func(text string) {
					n, err := parsePort(text, false)
					if err != nil {
						v.Errorf("%s", err.Error())
						return
					}
					ask(forwardPort{suggested: n, podPort: n})
				})
		case 1:
			ask(t.ports[0])
		default:
			labels := make([]string, len(t.ports))
			for i, p := range t.ports {
				labels[i] = p.label
			}
			v.Choose("port-forward to which port of "+pod.Name, labels, 0, func(i int) { ask(t.ports[i]) })
		}
	})
}

// forwardTargetOf is what a forward of row's port p reaches for as long as it runs: the pod of that name, or a
// ready pod of the service or the workload.
func forwardTargetOf(res discovery.Resource, row *watch.Row, p forwardPort) forwards.Target {
	kind := res.SingularName
	if kind == "" {
		kind = strings.ToLower(res.Kind)
	}
	return forwards.Target{GVR: res.GVR(), Kind: kind, Namespace: row.Namespace, Name: row.Name,
		Port: forwards.Port{Service: p.service, Name: p.name, Number: p.podPort}}
}

// resolveForward finds the pod and ports for a port-forward of row, an object of res: a pod's TCP container
// ports; a service's TCP ports, each to the target port on one of its pods (as kubectl port-forward svc/x
// resolves it); a deployment's pod's container ports.
func resolveForward(ctx context.Context, c cluster.Interface, res discovery.Resource, row *watch.Row) (forwardTarget, error) {
	pod, err := c.PodFor(ctx, res.GVR(), row.Namespace, row.Name)
	if err != nil {
		return forwardTarget{}, err
	}
	t := forwardTarget{pod: pod}
	if !isServices(res) {
		for _, ctr := range pod.Spec.Containers {
			for _, p := range ctr.Ports {
				if p.Protocol != "" && p.Protocol != corev1.ProtocolTCP {
					continue
				}
				label := fmt.Sprintf("%d/TCP  container %s", p.ContainerPort, ctr.Name)
				if p.Name != "" {
					label = fmt.Sprintf("%d/TCP  %s, container %s", p.ContainerPort, p.Name, ctr.Name)
				}
				t.ports = append(t.ports, forwardPort{label: label, suggested: int(p.ContainerPort), podPort: int(p.ContainerPort),
					container: ctr.Name, name: p.Name})
			}
		}
		return t, nil
	}
	u, err := c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	if err != nil {
		return forwardTarget{}, err
	}
	svc, err := forwards.ReadService(u)
	if err != nil {
		return forwardTarget{}, err
	}
	for _, sp := range svc.Spec.Ports {
		if sp.Protocol != "" && sp.Protocol != corev1.ProtocolTCP {
			continue
		}
		target, err := kubectlutil.LookupContainerPortNumberByServicePort(*svc, *pod, sp.Port)
		if err != nil {
			return forwardTarget{}, fmt.Errorf("service port %d: %w", sp.Port, err)
		}
		label := fmt.Sprintf("%d → pod %s:%d", sp.Port, pod.Name, target)
		if sp.Name != "" {
			label = fmt.Sprintf("%d (%s) → pod %s:%d", sp.Port, sp.Name, pod.Name, target)
		}
		t.ports = append(t.ports, forwardPort{label: label, suggested: int(sp.Port), podPort: int(target), service: sp.Port})
	}
	if len(t.ports) == 0 {
		return forwardTarget{}, fmt.Errorf("service %s has no TCP ports", svc.Name)
	}
	return t, nil
}

// askLocalPort asks for the local port of a forward of t, starting on pod, the suggested one when it is free,
// else a free one.
func (v *Verbs) askLocalPort(t forwards.Target, pod *corev1.Pod, p forwardPort) {
	label := fmt.Sprintf("port-forward %s/%s:%d from local port: ", pod.Namespace, pod.Name, p.podPort)
	v.Ask(label, strconv.Itoa(freeLocalPort(p.suggested)), func(text string) {
		local, err := parsePort(text, true)
		if err != nil {
			v.Errorf("%s", err.Error())
			return
		}
		v.forward(t, pod, local, p.podPort)
	})
}

// parsePort reads a port number (1-65535; 0 too when zero, for any free port).
func parsePort(text string, zero bool) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(text))
	if err != nil || n < 0 || n > 65535 || (n == 0 && !zero) {
		return 0, fmt.Errorf("not a port: %q (a number from 1 to 65535)", text)
	}
	return n, nil
}

// freeLocalPort returns port when it can be listened on locally now, else a port the system gives as free.
func freeLocalPort(port int) int {
	if l, err := net.Listen("tcp", net.JoinHostPort(forwardAddress, strconv.Itoa(port))); err == nil {
		_ = l.Close()
		return port
	}
	l, err := net.Listen("tcp", net.JoinHostPort(forwardAddress, "0"))
	if err != nil {
		return port
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
