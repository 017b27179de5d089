package helm

import (
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"kscope/watch"
)

// Driver is where Helm stores a release's revisions: one object per revision.
type Driver string

const (
	// Secrets is Helm's default storage: Secrets of type helm.sh/release.v1.
	Secrets Driver = "secret"
	// ConfigMaps is Helm's other storage in the cluster (HELM_DRIVER=configmap).
	ConfigMaps Driver = "configmap"
)

// GVR is the resource holding the driver's objects.
func (d Driver) GVR() schema.GroupVersionResource {
	if d == ConfigMaps {
		return schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	}
	return schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
}

// OwnerSelector selects the objects Helm stores releases in (its storage drivers' own selector).
const OwnerSelector = "owner=helm"

// objectPrefix begins the name of every object a revision is stored in: sh.helm.release.v1.NAME.vN.
const objectPrefix = "sh.helm.release.v1."

// Revision is one stored revision of a release as its object's metadata tells it, without its payload. A
// plain value.
type Revision struct {
	// Release and Namespace name the release; Number is the revision (Helm's version, from 1).
	Release, Namespace string
	Number             int
	// Status is Helm's status of the revision (deployed, superseded, failed, uninstalled, pending-…).
	Status string
	// Updated is when the revision was last written: its modifiedAt label, else its createdAt label, else the
	// object's creation.
	Updated time.Time
	// Driver and Object name the object the revision is stored in; ResourceVersion is the object's, which
	// changes whenever Helm rewrites it (a status change).
	Driver          Driver
	Object          string
	UID             types.UID
	ResourceVersion string
}

// Key is the release's key: "namespace/name".
func (r Revision) Key() string { return r.Namespace + "/" + r.Release }

// Stored names the object r is stored in: "namespace/object".
func (r Revision) Stored() string { return r.Namespace + "/" + r.Object }

// Version names the object r is stored in at the version read: its name, UID and resourceVersion. It
// changes whenever Helm rewrites the object; a row listed before its metadata was filled in (no UID nor
// resourceVersion yet) still has one of its own.
func (r Revision) Version() string { return r.Stored() + "@" + string(r.UID) + "@" + r.ResourceVersion }

// ParseRevision reads the revision stored in row, an object of driver listed with Helm's owner label: the
// release's name and revision from the labels Helm sets (else from the object's name), the status and the
// times from the labels. It tells false for an object that is not one of Helm's revisions.
func ParseRevision(driver Driver, row *watch.Row) (Revision, bool) {
	// A row of a one-namespace list has no labels until its metadata is filled in: its name tells enough.
	if row == nil || len(row.Labels) > 0 && row.Labels["owner"] != "helm" {
		return Revision{}, false
	}
	name, number, ok := nameOf(row.Name)
	if l := row.Labels["name"]; l != "" {
		name = l
	}
	if v, err := strconv.Atoi(row.Labels["version"]); err == nil && v > 0 {
		number, ok = v, name != ""
	}
	if !ok {
		return Revision{}, false
	}
	rev := Revision{Release: name, Namespace: row.Namespace, Number: number, Status: row.Labels["status"],
		Updated: row.Created, Driver: driver, Object: row.Name, UID: row.UID, ResourceVersion: row.ResourceVersion}
	for _, label := range []string{"modifiedAt", "createdAt"} {
		if t, ok := unixLabel(row.Labels[label]); ok {
			rev.Updated = t
			break
		}
	}
	return rev, true
}

// nameOf reads a release's name and revision from the name of the object it is stored in
// (sh.helm.release.v1.NAME.vN).
func nameOf(object string) (string, int, bool) {
	rest, ok := strings.CutPrefix(object, objectPrefix)
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndex(rest, ".v")
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(rest[i+2:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	return rest[:i], n, true
}

// unixLabel reads a label holding seconds since the epoch, as Helm writes createdAt and modifiedAt.
func unixLabel(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	return time.Unix(n, 0), true
}
