package verbs

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"kscope/cluster"
	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

var (
	cronJobsGVR = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "cronjobs"}
	jobsGVR     = schema.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
)

// isCronJobs tells whether res is batch's cronjobs.
func isCronJobs(res discovery.Resource) bool { return res.GVR() == cronJobsGVR }

// only is an applies func: res must be what is says, which action needs.
func only(is func(discovery.Resource) bool, action, what string) func(discovery.Resource) error {
	return func(res discovery.Resource) error {
		if !is(res) {
			return fmt.Errorf("%s cannot be %s: only %s can", res.FullName(), action, what)
		}
		return nil
	}
}

// imageSettable: what `kubectl set image` sets (a job's pod template cannot change).
func imageSettable(res discovery.Resource) error {
	switch {
	case isPods(res), isCronJobs(res),
		res.Group == "apps" && (res.Name == "deployments" || res.Name == "statefulsets" || res.Name == "daemonsets" || res.Name == "replicasets"):
		return nil
	}
	return fmt.Errorf("%s has no image to set: only pods, deployments, statefulsets, daemonsets, replicasets and cronjobs have", res.FullName())
}

var (
	triggerVerb = verb{key: keymap.Keys.Workload.Trigger, need: accessNeed{verb: "create", resource: jobsGVR},
		applies: only(isCronJobs, "triggered", "cronjobs"), start: (*Verbs).confirmTrigger}
	suspendVerb = verb{key: keymap.Keys.Workload.Suspend, need: accessNeed{verb: "patch"},
		applies: only(isCronJobs, "suspended", "cronjobs"), start: (*Verbs).startSuspend}
	killVerb = verb{key: keymap.Keys.Workload.Kill, need: accessNeed{verb: "delete"},
		applies: only(isPods, "killed", "pods"), start: (*Verbs).confirmKill}
	setImageVerb = verb{key: keymap.Keys.Workload.SetImage, need: accessNeed{verb: "patch"},
		applies: imageSettable, start: (*Verbs).startSetImage}
)

// confirmTrigger asks before creating a Job from row, a cronjob, now.
func (v *Verbs) confirmTrigger(res discovery.Resource, row *watch.Row) {
	what := "cronjob " + row.Key
	if !needUID(v, "triggering", what, row) {
		return
	}
	question := fmt.Sprintf("Trigger cronjob %s?\na Job is created from its template now (kubectl create job --from=cronjob/%s)", row.Name, row.Name)
	v.Confirm(question+namespaceLine(row), "Trigger", func() {
		v.Message("triggering " + what + " …")
		request(v, func(ctx context.Context, c cluster.Interface) (string, error) {
			return c.Trigger(ctx, row.Namespace, row.Name, row.UID)
		}, func(job string, err error) {
			if err != nil {
				v.Errorf("%s", failedWrite("triggering "+what, err))
				return
			}
			v.Message(fmt.Sprintf("triggered %s: job %s created", what, job))
		})
	})
}

// startSuspend reads row, a cronjob, then asks to suspend it, or to resume it when it is suspended; the
// write is conditioned on the UID read.
func (v *Verbs) startSuspend(res discovery.Resource, row *watch.Row) {
	what := "cronjob " + row.Key
	if !needUID(v, "suspending", what, row) {
		return
	}
	request(v, func(ctx context.Context, c cluster.Interface) (*unstructured.Unstructured, error) {
		return c.Get(ctx, res.GVR(), row.Namespace, row.Name)
	}, func(obj *unstructured.Unstructured, err error) {
		if err == nil && obj.GetUID() != row.UID {
			err = &conflictError{why: reCreated}
		}
		if err != nil {
			v.Errorf("not suspending %s: %s", what, err)
			return
		}
		suspended, _, _ := unstructured.NestedBool(obj.Object, "spec", "suspend")
		verb, note := "suspend", "no Job is scheduled until it is resumed; running Jobs go on"
		if suspended {
			verb, note = "resume", "its schedule starts again"
		}
		title := strings.ToUpper(verb[:1]) + verb[1:]
		// the UID only: the controller writes the cronjob's status while the dialog is open, and the state the
		// user asks for is the same whatever happened meanwhile
		pre := cluster.Precondition{UID: obj.GetUID()}
		v.Confirm(fmt.Sprintf("%s cronjob %s?\n%s", title, row.Name, note)+namespaceLine(row), title, func() {
			v.send(strings.TrimSuffix(verb, "e")+"ing "+what, strings.TrimSuffix(verb, "e")+"ed "+what, func(ctx context.Context, c cluster.Interface) error {
				return explainConflict(ctx, c, res, row, row.UID, c.Suspend(ctx, row.Namespace, row.Name, !suspended, pre))
			})
		})
	})
}

// confirmKill asks before deleting row, a pod, with no grace period.
func (v *Verbs) confirmKill(res discovery.Resource, row *watch.Row) {
	what := "pod " + row.Key
	if !needUID(v, "killing", what, row) {
		return
	}
	question := fmt.Sprintf("Kill pod %s?\nit is deleted at once (grace period 0): its containers get no time to stop", row.Name)
	v.Confirm(question+namespaceLine(row), "Kill", func() {
		v.send("killing "+what, "killed "+what, func(ctx context.Context, c cluster.Interface) error {
			return explainConflict(ctx, c, res, row, row.UID, c.Kill(ctx, row.Namespace, row.Name, row.UID))
		})
	})
}

// startSetImage reads row's containers; asks which one (when there are several), then its new image, then
// confirms; the write is conditioned on the read.
func (v *Verbs) startSetImage(res discovery.Resource, row *watch.Row) {
	what := res.Name + " " + row.Key
	if !needUID(v, "setting the image of", what, row) {
		return
	}
	type read struct {
		images []cluster.ContainerImage
		pre    cluster.Precondition
	}
	request(v, func(ctx context.Context, c cluster.Interface) (read, error) {
		images, pre, err := c.Images(ctx, res.GVR(), row.Namespace, row.Name)
		return read{images, pre}, err
	}, func(r read, err error) {
		if err == nil && r.pre.UID != row.UID {
			err = &conflictError{why: reCreated}
		}
		if err == nil && len(r.images) == 0 {
			err = fmt.Errorf("it has no containers")
		}
		if err != nil {
			v.Errorf("not setting the image of %s: %s", what, err)
			return
		}
		ask := func(i int) { v.askImage(res, row, r.images[i], r.pre) }
		if len(r.images) == 1 {
			ask(0)
			return
		}
		items := make([]string, len(r.images))
		for i, ci := range r.images {
			items[i] = containerItem(ci)
		}
		v.Choose("set the image of which container?", items, len(items)-1, ask)
	})
}

// containerItem is a container as the set-image dialog lists it.
func containerItem(ci cluster.ContainerImage) string {
	if ci.Init {
		return fmt.Sprintf("%s (init)  %s", ci.Name, ci.Image)
	}
	return fmt.Sprintf("%s  %s", ci.Name, ci.Image)
}

// askImage asks for ci's new image, then confirms.
func (v *Verbs) askImage(res discovery.Resource, row *watch.Row, ci cluster.ContainerImage, pre cluster.Precondition) {
	label := fmt.Sprintf("image of container %s of %s %s: ", ci.Name, res.Name, row.Name)
	v.Ask(label, ci.Image, func(text string) {
		image := strings.TrimSpace(text)
		if image == "" || strings.ContainsAny(image, " \t") {
			v.Errorf("not an image: %q", text)
			return
		}
		if image == ci.Image {
			v.Message("the image of " + ci.Name + " is " + image + " already: nothing to do")
			return
		}
		question := fmt.Sprintf("Set the image of container %s of %s %s?\n%s → %s", ci.Name, res.Name, row.Name, ci.Image, image)
		v.Confirm(question+namespaceLine(row), "Set image", func() {
			what := fmt.Sprintf("the image of %s in %s %s", ci.Name, res.Name, row.Key)
			v.send("setting "+what, "set "+what+" to "+image, func(ctx context.Context, c cluster.Interface) error {
				return explainConflict(ctx, c, res, row, row.UID, c.SetImage(ctx, res.GVR(), row.Namespace, row.Name, ci.Name, image, pre))
			})
		})
	})
}
