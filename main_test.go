package main

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"kscope/cli"
)

// TestVersionClientOnly: `kscope version --client` names the version main holds and the client-go the
// program was built with (a test binary of package main carries the build's dependencies; one of package cli
// does not).
func TestVersionClientOnly(t *testing.T) {
	var out, errOut bytes.Buffer
	code := cli.Main([]string{"version", "--client"}, genericiooptions.IOStreams{Out: &out, ErrOut: &errOut}, version)
	if code != 0 || !strings.HasPrefix(out.String(), "Client Version: kscope dev (client-go v0.37.2)\n") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
