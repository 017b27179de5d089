package verbs

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"kscope/apierr"
	"kscope/cluster"
	"kscope/discovery"
	"kscope/logs"
	"kscope/ui/keymap"
	"kscope/watch"
)

// DebugTimeout bounds the wait for a debug container to run (an image to pull, a node to schedule on).
const DebugTimeout = 2 * time.Minute

var (
	// debugVerb on a pod patches its ephemeralcontainers subresource (kubectl debug POD).
	debugVerb = verb{key: keymap.Keys.Debug.Debug,
		need:    accessNeed{verb: "patch", subresource: "ephemeralcontainers", resource: podsGVR},
		applies: only(isPods, "debugged", "pods and nodes"), start: (*Verbs).startDebug}
	// debugNodeVerb on a node creates a pod (kubectl debug node/N), in the namespace of the moment.
	debugNodeVerb = verb{key: keymap.Keys.Debug.Debug, need: accessNeed{verb: "create", resource: podsGVR},
		inNamespace: true, applies: only(isNodes, "debugged", "pods and nodes"), start: (*Verbs).startDebugNode}
)

// askDebugImage asks for the debug container's image (DefaultDebugImage first), then calls next with it.
func (v *Verbs) askDebugImage(what string, next func(image string)) {
	v.Ask("image of the debug container for "+what+": ", cluster.DefaultDebugImage, func(text string) {
		image := strings.TrimSpace(text)
		if image == "" || strings.ContainsAny(image, " \t") {
			v.Errorf("not an image: %q", text)
			return
		}
		next(image)
	})
}

// chooseProfile lets the user pick kubectl debug's profile (general first), then calls next with it.
func (v *Verbs) chooseProfile(next func(profile string)) {
	profiles := cluster.DebugProfiles()
	v.Choose("debug profile (kubectl debug --profile)", profiles, 0, func(i int) { next(profiles[i]) })
}

// startDebug reads row, a pod, which must run; asks the image, the target container (when it has several)
// and the profile, then confirms; then debugPod.
func (v *Verbs) startDebug(_ discovery.Resource, row *watch.Row) {
	what := "pod " + row.Key
	if !needUID(v, "debugging", what, row) {
		return
	}
	v.Message("reading " + what + " …")
	request(v, func(ctx context.Context, c cluster.Interface) (*corev1.Pod, error) {
		return c.PodFor(ctx, podsGVR, row.Namespace, row.Name)
	}, func(pod *corev1.Pod, err error) {
		switch {
		case err != nil:
			v.Errorf("debug %s: %s", what, apierr.OneLine(err.Error()))
			return
		case !sameObject(v, "debugging", what, row, pod.UID):
			return
		case pod.Status.Phase != corev1.PodRunning:
			v.Errorf("debug %s: the pod is %s, not running", what, phaseOf(pod))
			return
		}
		v.Message("")
		v.askDebugImage(what, func(image string) {
			v.chooseTarget(pod, func(target string) {
				v.chooseProfile(func(profile string) {
					v.confirmDebug(row, cluster.DebugOptions{Image: image, Target: target, Profile: profile})
				})
			})
		})
	})
}

// chooseTarget picks the container whose processes the debug container sees (--target): the only one, or
// the one the user picks (the default container first).
func (v *Verbs) chooseTarget(pod *corev1.Pod, next func(target string)) {
	names := make([]string, len(pod.Spec.Containers))
	for i, c := range pod.Spec.Containers {
		names[i] = c.Name
	}
	switch len(names) {
	case 0:
		next("")
	case 1:
		next(names[0])
	default:
		v.Choose("target container (its processes are shared with the debug container)", names,
			logs.DefaultContainer(names, pod.Annotations, 0), func(i int) { next(names[i]) })
	}
}

// confirmDebug asks before adding the ephemeral container (Cancel focused): it cannot be removed, only the
// pod's deletion ends it.
func (v *Verbs) confirmDebug(row *watch.Row, opts cluster.DebugOptions) {
	question := fmt.Sprintf("Debug pod %s?\nan ephemeral container (image %s, profile %s", row.Name, opts.Image, opts.Profile)
	if opts.Target != "" {
		question += ", target " + opts.Target
	}
	question += ") is added to it, as kubectl debug -it does; it stays until the pod is deleted"
	v.Confirm(question+namespaceLine(row), "Debug", func() {
		conn := v.Cluster()
		pod := &corev1.Pod{}
		pod.Namespace, pod.Name = row.Namespace, row.Name
		v.debugThenAttach(conn, "debugging pod "+row.Key, pod, func(ctx context.Context) (string, error) {
			return conn.DebugPod(ctx, row.Namespace, row.Name, opts, cluster.Precondition{UID: row.UID})
		})
	})
}

// debugThenAttach runs create (which returns the container to wait for, in pod), waits for that container
// to run, then attaches to it (as kubectl debug -it does), saying each step on the prompt line (doing …). A
// context switch meanwhile leaves the attachment out.
func (v *Verbs) debugThenAttach(conn cluster.Interface, doing string, pod *corev1.Pod, create func(context.Context) (string, error)) {
	v.Message(doing + " …")
	v.Pending(1)
	v.Go(func() {
		fail := func(err error) {
			v.Update(func() {
				defer v.Pending(-1)
				v.Errorf("%s", failedWrite(doing, err))
			})
		}
		ctx, cancel := context.WithTimeout(v.Context(), RequestTimeout)
		container, err := create(ctx)
		cancel()
		if err != nil {
			fail(err)
			return
		}
		v.Update(func() { v.Message(fmt.Sprintf("%s: waiting for container %s to run …", doing, container)) })
		ctx, cancel = context.WithTimeout(v.Context(), DebugTimeout)
		err = conn.WaitRunning(ctx, pod.Namespace, pod.Name, container)
		cancel()
		if err != nil {
			fail(err)
			return
		}
		v.Update(func() {
			defer v.Pending(-1)
			if v.Cluster() != conn {
				return
			}
			v.Message(fmt.Sprintf("%s: container %s runs; attaching …", doing, container))
			v.attachDebug(conn, pod, container)
		})
	})
}

// attachDebug attaches to container of pod, the debug container kscope made (stdin and a terminal, as
// kubectl debug -it makes it), with the TUI suspended. When the attachment is refused (nothing came or
// went before it failed: an old server, a kubelet without attach), it says so on the terminal and runs a
// shell in the container instead (exec), then says so on the prompt line with how the shell ended
// ("attach refused (why): shell in … ended").
func (v *Verbs) attachDebug(conn cluster.Interface, pod *corev1.Pod, container string) {
	a := attachTarget{namespace: pod.Namespace, pod: pod.Name, container: container, stdin: true, tty: true}
	var end attachEnd
	var refused bool
	var shellErr error
	if !v.Suspend(func() {
		_ = v.withTerminal(func(t streamTerminal) error {
			end = v.attachOn(conn, t, a)
			if refused = end.refused(v.Context()); !refused {
				return nil
			}
			fmt.Fprintf(t.out, "kscope: attach refused (%s); a shell in the container instead (exec)\r\n",
				termSafe(apierr.OneLine(end.err.Error())))
			shellErr = conn.Exec(v.Context(), shellRequest(t, pod, container))
			return nil
		})
	}) {
		v.Errorf("attach %s: no terminal to give it", a.what())
		return
	}
	if refused {
		v.shellEnded(a.what(), shellErr, "attach refused ("+apierr.OneLine(end.err.Error())+"): ")
		return
	}
	v.attachEnded(a.what(), end)
}
