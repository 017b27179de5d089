package helm

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kwatch "k8s.io/apimachinery/pkg/watch"
	applycorev1 "k8s.io/client-go/applyconfigurations/core/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

// errOneObject is what a oneObject store answers to anything but reading its object: Helm's storage driver
// is handed it to decode one revision kscope already read, and must neither list nor write.
var errOneObject = errors.New("helm: kscope decodes one stored revision at a time and writes nothing")

// oneObject is the store Helm's storage drivers decode one revision from: the Secret or the ConfigMap kscope
// read through its own connection, served by Get under its name. It implements the two typed clients the
// drivers take, read-only. Safe for concurrent use (it is never changed).
type oneObject struct {
	secret    *corev1.Secret
	configMap *corev1.ConfigMap
}

var (
	_ typedcorev1.SecretInterface    = secretStore{}
	_ typedcorev1.ConfigMapInterface = configMapStore{}
)

// secretStore is a oneObject as the Secrets driver's client.
type secretStore struct{ oneObject }

func (s secretStore) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.Secret, error) {
	if s.secret == nil || s.secret.Name != name {
		return nil, errOneObject
	}
	return s.secret.DeepCopy(), nil
}
func (secretStore) Create(context.Context, *corev1.Secret, metav1.CreateOptions) (*corev1.Secret, error) {
	return nil, errOneObject
}
func (secretStore) Update(context.Context, *corev1.Secret, metav1.UpdateOptions) (*corev1.Secret, error) {
	return nil, errOneObject
}
func (secretStore) Delete(context.Context, string, metav1.DeleteOptions) error { return errOneObject }
func (secretStore) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return errOneObject
}
func (secretStore) List(context.Context, metav1.ListOptions) (*corev1.SecretList, error) {
	return nil, errOneObject
}
func (secretStore) Watch(context.Context, metav1.ListOptions) (kwatch.Interface, error) {
	return nil, errOneObject
}
func (secretStore) Patch(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (*corev1.Secret, error) {
	return nil, errOneObject
}
func (secretStore) Apply(context.Context, *applycorev1.SecretApplyConfiguration, metav1.ApplyOptions) (*corev1.Secret, error) {
	return nil, errOneObject
}

// configMapStore is a oneObject as the ConfigMaps driver's client.
type configMapStore struct{ oneObject }

func (s configMapStore) Get(_ context.Context, name string, _ metav1.GetOptions) (*corev1.ConfigMap, error) {
	if s.configMap == nil || s.configMap.Name != name {
		return nil, errOneObject
	}
	return s.configMap.DeepCopy(), nil
}
func (configMapStore) Create(context.Context, *corev1.ConfigMap, metav1.CreateOptions) (*corev1.ConfigMap, error) {
	return nil, errOneObject
}
func (configMapStore) Update(context.Context, *corev1.ConfigMap, metav1.UpdateOptions) (*corev1.ConfigMap, error) {
	return nil, errOneObject
}
func (configMapStore) Delete(context.Context, string, metav1.DeleteOptions) error {
	return errOneObject
}
func (configMapStore) DeleteCollection(context.Context, metav1.DeleteOptions, metav1.ListOptions) error {
	return errOneObject
}
func (configMapStore) List(context.Context, metav1.ListOptions) (*corev1.ConfigMapList, error) {
	return nil, errOneObject
}
func (configMapStore) Watch(context.Context, metav1.ListOptions) (kwatch.Interface, error) {
	return nil, errOneObject
}
func (configMapStore) Patch(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (*corev1.ConfigMap, error) {
	return nil, errOneObject
}
func (configMapStore) Apply(context.Context, *applycorev1.ConfigMapApplyConfiguration, metav1.ApplyOptions) (*corev1.ConfigMap, error) {
	return nil, errOneObject
}
