package main

// podEphemeralRunning is a kwok Stage of kscope's own: kwok's fast pod stages never report a pod's
// ephemeral containers (kubectl debug's), so a debugger waiting for one to run would wait for ever. It
// matches a pod that is not being deleted and has more ephemeral containers in its spec than in its status,
// and writes a running status for each (ready false, as a kubelet reports them; those running already keep
// their start); once written the counts are
// equal and the stage no longer matches, so it applies once per container added.
const podEphemeralRunning = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-ephemeral-containers-running
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values:
      - 'Running'
    - key: '(.spec.ephemeralContainers // [] | length) > (.status.ephemeralContainerStatuses // [] | length)'
      operator: 'In'
      values:
      - 'true'
  next:
    statusTemplate: |
      {{ $now := Now }}
      {{ $statuses := .status.ephemeralContainerStatuses }}
      ephemeralContainerStatuses:
      {{ range .spec.ephemeralContainers }}
      {{ $name := .name }}
      {{ $started := $now }}
      {{ range $statuses }}{{ if eq .name $name }}{{ with .state }}{{ with .running }}{{ $started = .startedAt }}{{ end }}{{ end }}{{ end }}{{ end }}
      - image: {{ .image | Quote }}
        name: {{ .name | Quote }}
        ready: false
        restartCount: 0
        state:
          running:
            startedAt: {{ $started | Quote }}
      {{ end }}
`
