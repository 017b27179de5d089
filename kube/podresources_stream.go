package kube

import (
	"fmt"
	"io"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"kscope/kubeproto"
)

// maxPodBytes bounds one pod (or one watch frame, or one list's metadata) as client-go's streaming decoder
// bounds a frame: the apiserver refuses objects above 1.5 MiB whole.
const maxPodBytes = 16 << 20

// decodePodList reads a protobuf PodList body as a stream (kubeproto.ReadList): the list is never held
// whole, each pod's bytes are read into one reused buffer and decoded by d. A Status body is returned as the
// error it describes (apierrors.FromObject); a body that ends early, or that is not a PodList, is an error,
// never a shorter list.
func decodePodList(r io.Reader, d podDecoder) (*podResourceList, error) {
	list := &podResourceList{Items: []*podResource{}}
	err := kubeproto.ReadList(r, "PodList", maxPodBytes, kubeproto.ListHandler{
		Meta: func(m metav1.ListMeta) error {
			list.ListMeta = m
			return nil
		},
		Item: func(b []byte) error {
			pod, err := d.pod(b)
			if err != nil {
				return fmt.Errorf("pod %d: %w", len(list.Items), err)
			}
			list.Items = append(list.Items, pod)
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	return list, nil
}
