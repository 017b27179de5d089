//go:build e2e

package e2e

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestUILogsFilterRangesJSON reads a real container log in kscope as a k9s user does: & filters the lines
// (new ones too), !REGEX inverts, the time range keys read the log again (since 1m, all, tail: the counts
// kubectl sees), and J shows its JSON lines indented, then as chosen fields, then as read; c copies them as
// read.
func TestUILogsFilterRangesJSON(t *testing.T) {
	serial(t, "appends JSON lines to the devcluster's default container log (what every container without a log of its own shows) and reads the tmux clipboard buffer")
	ns := testNamespace(t)
	createRunningPod(t, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "jsonlog", Namespace: ns},
		Spec: corev1.PodSpec{NodeName: "kwok-node-0", Containers: []corev1.Container{{Name: "app", Image: "registry.example.com/app:1.0"}}}})
	mark := "kscope-json-" + randomSuffix()
	okLine := fmt.Sprintf(`{"level":"info","msg":"%s-ok","seq":1}`, mark)
	failedLine := fmt.Sprintf(`{"level":"error","msg":"%s-failed","seq":2}`, mark)
	plainLine := mark + " plain text"
	for _, l := range []string{okLine, failedLine, plainLine} {
		devcluster(t, "log", "app", l)
	}

	s := startUI(t, "--readonly", "-n", ns, "pods")
	s.waitFor("pods("+ns+")[1]", "synced")
	s.keys("l")
	s.waitFor("logs pods "+ns+"/jsonlog app · tail 200", "lines kept", plainLine)

	typeFilter := func(text string) {
		t.Helper()
		s.typeText("&")
		s.waitFor("filter (!: not matching)")
		s.keys("C-u")
		s.typeText(text)
		s.keys("Enter")
	}
	filter := func(text string) {
		t.Helper()
		typeFilter(text)
		s.waitFor("filter " + text + ": ")
	}
	// & shows only the lines matching, new ones too
	filter(mark + "-")
	s.waitUntil("only the JSON lines", func(scr string) bool {
		return strings.Contains(scr, okLine) && strings.Contains(scr, failedLine) && !strings.Contains(scr, plainLine) &&
			strings.Contains(scr, "filter "+mark+"-: 2 of ")
	})
	devcluster(t, "log", "app", mark+" plain, later")
	devcluster(t, "log", "app", fmt.Sprintf(`{"level":"info","msg":"%s-live","seq":3}`, mark))
	s.waitFor(mark+"-live", "filter "+mark+"-: 3 of ")
	if strings.Contains(s.screen(), mark+" plain, later") {
		t.Fatalf("a new line the filter hides is shown:\n%s", s.screen())
	}
	// !REGEX shows those not matching
	filter("!" + mark + "-")
	s.waitUntil("the lines without the JSON ones", func(scr string) bool {
		return strings.Contains(scr, plainLine) && strings.Contains(scr, mark+" plain, later") && !strings.Contains(scr, okLine)
	})
	// an invalid expression is said, the filter stays
	typeFilter("(")
	s.waitFor("not a regular expression", "filter !"+mark+"-: ")
	s.keys("Escape")
	s.waitGone("filter !" + mark)

	// the time ranges, counted through a filter on the old lines the devcluster wrote when it started
	old := "container=_default"
	filter(old)
	counts := regexp.MustCompile(`filter ` + old + `: (\d+) of (\d+) lines shown`)
	logLines := func() (all, matching int) {
		out := kubectl(t, "-n", ns, "logs", "jsonlog", "-c", "app")
		lines := linesWith(out, "")
		for _, l := range lines {
			if strings.Contains(l, old) {
				matching++
			}
		}
		return len(lines), matching
	}
	for _, tc := range []struct{ key, title string }{{"6", "all"}, {"1", "since 1m"}, {"0", "tail 200"}} {
		if tc.key == "1" {
			devcluster(t, "log", "app", mark+" within the minute")
		}
		s.typeText(tc.key)
		s.waitFor("logs pods " + ns + "/jsonlog app · " + tc.title)
		waitForSeen(t, 30*time.Second, "the counts of "+tc.title+" as kubectl sees them", func() (bool, string) {
			all, matching := logLines()
			scr := s.screen()
			m := counts.FindStringSubmatch(scr)
			if m == nil {
				return false, scr
			}
			shown, kept := atoi(m[1]), atoi(m[2])
			switch tc.key {
			case "6":
				return shown == matching && kept == min(all, 5000) && matching >= 40, fmt.Sprintf("%s; kubectl: %d of %d", m[0], matching, all)
			case "1":
				return shown == 0 && kept >= 1 && kept < all, fmt.Sprintf("%s; kubectl: %d lines in all", m[0], all)
			default:
				return kept == min(all, 200), fmt.Sprintf("%s; kubectl: %d lines", m[0], all)
			}
		})
	}
	s.keys("Escape")
	s.waitGone("filter " + old)

	// J: indented, then the fields chosen, then as read; c copies the lines as read
	filter(mark + "-")
	s.typeText("J")
	s.waitFor("· JSON pretty", `"msg": "`+mark+`-failed",`, `"level": "error",`, `"seq": 2`)
	s.keys("c")
	s.waitFor("copied the lines on screen (")
	out, err := exec.Command("tmux", "show-buffer").Output()
	if err != nil || !strings.Contains(string(out), failedLine+"\n") {
		t.Fatalf("tmux buffer after c in pretty mode: %v\n%s", err, out)
	}
	s.typeText("J")
	s.waitFor("JSON fields (of level msg seq)")
	s.keys("C-u")
	s.typeText("msg,level")
	s.keys("Enter")
	s.waitFor("· JSON msg,level", "msg="+mark+"-failed level=error", "msg="+mark+"-live level=info")
	s.typeText("J")
	s.waitFor(failedLine, okLine)
	s.waitGone("· JSON")
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
