package main

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// machine describes the host: cores, memory, kernel, load.
func machine() map[string]string {
	m := map[string]string{
		"nproc":         output("nproc"),
		"kernel":        output("uname", "-sr"),
		"free_g":        output("free", "-g"),
		"cpu":           cpuModel(),
		"loadavg_start": loadAvg(),
	}
	return m
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// load1 returns the 1-minute load average (0 if unknown).
func load1() float64 { return loadOf(loadAvg()) }

// loadOf reads the first figure of a loadAvg string (0 if there is none).
func loadOf(avg string) float64 {
	f := strings.Fields(avg)
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v
}

// loadAvg returns the 1, 5 and 15 minute load averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// versions names what was measured.
func (b *bench) versions(kscope, k9s string) map[string]string {
	v := map[string]string{
		"kscope":  output(kscope, "version", "--client"),
		"kubectl": output("kubectl", "version", "--client"),
		"go":      output("go", "version"),
	}
	if b.before != "" {
		v[beforeTool] = output(b.before, "version", "--client")
	}
	if k9s != "" { // `go install` leaves its own version string at "dev"; the build info has the module's
		for _, line := range strings.Split(output("go", "version", "-m", k9s), "\n") {
			if f := strings.Fields(line); len(f) >= 3 && f[0] == "mod" {
				v["k9s"] = f[1] + " " + f[2]
			}
		}
	}
	if info, err := b.client.Discovery().ServerVersion(); err == nil {
		v["kube-apiserver"] = info.GitVersion
	}
	return v
}

// output runs a command and returns its trimmed output (or the error).
func output(name string, args ...string) string {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		return "error: " + err.Error()
	}
	return strings.TrimSpace(string(out))
}

// countPods counts the pods in namespace from one page's remainingItemCount.
func countPods(ctx context.Context, client kubernetes.Interface, namespace string) (int, error) {
	list, err := client.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		return 0, err
	}
	n := len(list.Items)
	if list.RemainingItemCount != nil {
		n += int(*list.RemainingItemCount)
	}
	return n, nil
}
