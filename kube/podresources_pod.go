package kube

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
	"k8s.io/apimachinery/pkg/api/resource"

	"kscope/cluster"
	"kscope/kubeproto"
)

// The field numbers the pod decoder reads, from k8s.io/api/core/v1/generated.proto and
// k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto (v0.37.2); ObjectMeta's are kubeproto's. Every other
// field is skipped.
const (
	podMetadataField = 1 // Pod.metadata (ObjectMeta)
	podSpecField     = 2 // Pod.spec (PodSpec)

	specContainersField     = 2  // PodSpec.containers
	specInitContainersField = 20 // PodSpec.initContainers

	containerResourcesField     = 8  // Container.resources (ResourceRequirements)
	containerRestartPolicyField = 24 // Container.restartPolicy

	resourcesLimitsField   = 1 // ResourceRequirements.limits, map<string, Quantity>
	resourcesRequestsField = 2 // ResourceRequirements.requests, map<string, Quantity>

	quantityStrField = 1 // resource.Quantity.string
)

// podDecoder turns the protobuf encoding of a Pod into a podResource, reading only the pod's key, its
// resourceVersion and its containers' requests and limits: the rest is skipped where it lies, without being
// allocated. It follows the generated Unmarshal where a field appears more than once (the last value of a
// scalar or a map key wins, repeated messages add up, a message appearing twice is merged), so that a pod it
// decodes sums as sumPodResources sums the same pod decoded whole; it does not validate what it skips (a
// quantity in the status, say), so it accepts some bodies the generated code refuses. Safe for concurrent use.
type podDecoder struct {
	texts *namespaceTexts
}

// pod decodes the Pod message b; the podResource holds no reference to b.
func (d podDecoder) pod(b []byte) (*podResource, error) {
	var name, namespace, rv []byte
	var sums podSums
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return nil, err
		}
		switch f.Num {
		case podMetadataField:
			if err := kubeproto.WantBytes("metadata", f.Type); err != nil {
				return nil, err
			}
			if err := readPodMeta(f.Bytes, &name, &namespace, &rv); err != nil {
				return nil, fmt.Errorf("metadata: %w", err)
			}
		case podSpecField:
			if err := kubeproto.WantBytes("spec", f.Type); err != nil {
				return nil, err
			}
			if err := sums.readSpec(f.Bytes); err != nil {
				return nil, fmt.Errorf("spec: %w", err)
			}
		}
		b = rest
	}
	return &podResource{name: string(name), namespace: d.texts.share(namespace), resourceVersion: string(rv),
		sums: sums.resources()}, nil
}

// readPodMeta sets name, namespace and rv to the last value of their ObjectMeta field in b (aliasing b).
func readPodMeta(b []byte, name, namespace, rv *[]byte) error {
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		var dst *[]byte
		switch f.Num {
		case kubeproto.ObjectMetaName:
			dst = name
		case kubeproto.ObjectMetaNamespace:
			dst = namespace
		case kubeproto.ObjectMetaResourceVersion:
			dst = rv
		}
		if dst != nil {
			if f.Type != protowire.BytesType {
				return kubeproto.WantBytes(fmt.Sprintf("field %d", f.Num), f.Type)
			}
			*dst = f.Bytes
		}
		b = rest
	}
	return nil
}

// podSums adds up the requests and limits of the containers that run together, as sumPodResources does:
// the pod's containers and its sidecars (init containers with restartPolicy Always), each quantity added
// exactly before the sums are rounded (CPU up to millicores, memory up to bytes).
type podSums struct {
	reqCPU, limCPU, reqMem, limMem resource.Quantity
}

// readSpec adds the containers of the PodSpec b.
func (s *podSums) readSpec(b []byte) error {
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		if f.Num == specContainersField || f.Num == specInitContainersField {
			if err := kubeproto.WantBytes("containers", f.Type); err != nil {
				return err
			}
			var c containerResources
			if err := c.read(f.Bytes); err != nil {
				return fmt.Errorf("container: %w", err)
			}
			if f.Num == specContainersField || c.restartAlways {
				s.reqCPU.Add(c.q[requestCPU])
				s.limCPU.Add(c.q[limitCPU])
				s.reqMem.Add(c.q[requestMemory])
				s.limMem.Add(c.q[limitMemory])
			}
		}
		b = rest
	}
	return nil
}

// resources rounds the sums as sumPodResources does.
func (s *podSums) resources() cluster.PodResources {
	return cluster.PodResources{
		RequestCPU: s.reqCPU.MilliValue(), LimitCPU: s.limCPU.MilliValue(),
		RequestMemory: s.reqMem.Value(), LimitMemory: s.limMem.Value(),
	}
}

// The indexes of containerResources.q.
const (
	requestCPU = iota
	limitCPU
	requestMemory
	limitMemory
)

// containerResources is what one Container contributes to its pod's sums: the cpu and memory of its
// requests and limits (zero where missing) and whether its restartPolicy is Always (a sidecar, when it is an
// init container).
type containerResources struct {
	q             [4]resource.Quantity
	restartAlways bool
}

// read reads the Container message b.
func (c *containerResources) read(b []byte) error {
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		switch f.Num {
		case containerResourcesField:
			if err := kubeproto.WantBytes("resources", f.Type); err != nil {
				return err
			}
			if err := c.readRequirements(f.Bytes); err != nil {
				return fmt.Errorf("resources: %w", err)
			}
		case containerRestartPolicyField:
			if err := kubeproto.WantBytes("restartPolicy", f.Type); err != nil {
				return err
			}
			c.restartAlways = string(f.Bytes) == "Always"
		}
		b = rest
	}
	return nil
}

// readRequirements reads a ResourceRequirements message: the cpu and memory entries of its limits and requests.
func (c *containerResources) readRequirements(b []byte) error {
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return err
		}
		if f.Num == resourcesLimitsField || f.Num == resourcesRequestsField {
			if err := kubeproto.WantBytes("resource list", f.Type); err != nil {
				return err
			}
			key, value, err := kubeproto.MapEntry(f.Bytes)
			if err != nil {
				return err
			}
			i := -1
			switch string(key) {
			case "cpu":
				i = requestCPU
			case "memory":
				i = requestMemory
			}
			if i >= 0 {
				if f.Num == resourcesLimitsField {
					i++ // limitCPU, limitMemory
				}
				q, err := readQuantity(value)
				if err != nil {
					return fmt.Errorf("%s: %w", key, err)
				}
				c.q[i] = q
			}
		}
		b = rest
	}
	return nil
}

// readQuantity reads a resource.Quantity message as its Unmarshal does: the quantity its string field
// parses to (the last one), zero for an empty message.
func readQuantity(b []byte) (resource.Quantity, error) {
	var q resource.Quantity
	for len(b) > 0 {
		f, rest, err := kubeproto.Next(b)
		if err != nil {
			return q, err
		}
		if f.Num == quantityStrField {
			if err := kubeproto.WantBytes("quantity", f.Type); err != nil {
				return q, err
			}
			if q, err = resource.ParseQuantity(string(f.Bytes)); err != nil {
				return q, fmt.Errorf("quantity %q: %w", f.Bytes, err)
			}
		}
		b = rest
	}
	return q, nil
}
