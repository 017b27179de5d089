package watch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/cli-runtime/pkg/printers"
)

// initialEventsEnd is the annotation the server sets on the BOOKMARK that ends a streamed list
// (sendInitialEvents=true); the reflector waits for it.
const initialEventsEnd = metav1.InitialEventsAnnotationKey

// wireTable is what the server sends for a list or a watch event's object when asked for Table rows: a
// meta.k8s.io/v1 Table, a plain list or object (a server without Table support), or a Status. Only the fields
// rows need are decoded; managedFields and annotations (but initial-events-end) are skipped by the decoder.
type wireTable struct {
	Kind              string                         `json:"kind"`
	APIVersion        string                         `json:"apiVersion"`
	Metadata          wireMeta                       `json:"metadata"`
	ColumnDefinitions []metav1.TableColumnDefinition `json:"columnDefinitions"`
	Rows              []wireRow                      `json:"rows"`
	Items             []wireObject                   `json:"items"`
	Status            string                         `json:"status"`
	Message           string                         `json:"message"`
	Reason            metav1.StatusReason            `json:"reason"`
	Details           *metav1.StatusDetails          `json:"details"`
	Code              int32                          `json:"code"`
}

// wireMeta is the union of the object and list metadata fields kscope reads.
type wireMeta struct {
	Name               string            `json:"name"`
	Namespace          string            `json:"namespace"`
	UID                types.UID         `json:"uid"`
	ResourceVersion    string            `json:"resourceVersion"`
	CreationTimestamp  metav1.Time       `json:"creationTimestamp"`
	Labels             map[string]string `json:"labels"`
	Annotations        keptAnnotations   `json:"annotations"`
	Continue           string            `json:"continue"`
	RemainingItemCount *int64            `json:"remainingItemCount"`
}

type wireRow struct {
	Cells  []wireCell `json:"cells"`
	Object wireObject `json:"object"`
}

type wireObject struct {
	Metadata wireMeta `json:"metadata"`
}

// isTable tells whether the decoded object is a meta.k8s.io Table.
func (t *wireTable) isTable() bool {
	return t.Kind == "Table" && strings.HasPrefix(t.APIVersion, "meta.k8s.io/")
}

// status returns the object as a metav1.Status when it is one.
func (t *wireTable) status() (*metav1.Status, bool) {
	if t.Kind != "Status" {
		return nil, false
	}
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   t.Status, Message: t.Message, Reason: t.Reason, Details: t.Details, Code: t.Code,
	}, true
}

// keptAnnotations decodes only the annotations the reflector needs (initial-events-end), so that large ones
// such as kubectl.kubernetes.io/last-applied-configuration are never allocated.
type keptAnnotations map[string]string

func (a *keptAnnotations) UnmarshalJSON(b []byte) error {
	if !bytes.Contains(b, []byte(initialEventsEnd)) {
		*a = nil
		return nil
	}
	var all map[string]string
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	if v, ok := all[initialEventsEnd]; ok {
		*a = keptAnnotations{initialEventsEnd: v}
	}
	return nil
}

// wireCell is one Table cell, formatted at decode time as kubectl's table printer prints it.
type wireCell string

func (c *wireCell) UnmarshalJSON(b []byte) error {
	s, err := formatCell(b)
	*c = wireCell(s)
	return err
}

// formatCell turns one JSON cell value into the text `kubectl get` prints for it (cli-runtime's TablePrinter):
// strings as they are, null as an empty cell, booleans as true/false, integers in decimal, other numbers as Go's
// %v prints a float64, objects and arrays as %v prints their decoded value. Text is cut at the first line break
// (with "...") and terminal escape characters are escaped, as kubectl does.
func formatCell(b []byte) (string, error) {
	if len(b) == 0 {
		return "", nil
	}
	var s string
	switch b[0] {
	case '"':
		// A cut-off body can hand over a lone or unterminated quote: json.Unmarshal reports it.
		if len(b) >= 2 && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 {
			s = string(b[1 : len(b)-1])
		} else if err := json.Unmarshal(b, &s); err != nil {
			return "", err
		}
	case 'n':
		return "", nil
	case 't':
		return "true", nil
	case 'f':
		return "false", nil
	case '{', '[':
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return "", err
		}
		s = fmt.Sprint(preserveInts(v))
	default:
		s = formatNumber(string(b))
	}
	return escapeCell(s), nil
}

// formatNumber prints a JSON number as kubectl does after decoding it (integers as int64, others as float64).
func formatNumber(n string) string {
	if i, err := strconv.ParseInt(n, 10, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	f, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return n
	}
	return fmt.Sprint(f)
}

// preserveInts converts whole float64 values back to int64 throughout v, as Kubernetes' JSON decoding does.
func preserveInts(v any) any {
	switch t := v.(type) {
	case float64:
		if i := int64(t); float64(i) == t {
			return i
		}
	case map[string]any:
		for k, e := range t {
			t[k] = preserveInts(e)
		}
	case []any:
		for i, e := range t {
			t[i] = preserveInts(e)
		}
	}
	return v
}

// escapeCell cuts s at its first line break and escapes terminal control characters, as kubectl prints cells.
func escapeCell(s string) string {
	if !strings.ContainsAny(s, "\f\n\r\x1b") {
		return s
	}
	if i := strings.IndexAny(s, "\f\n\r"); i >= 0 {
		return printers.EscapeTerminal(s[:i]) + "..."
	}
	return printers.EscapeTerminal(s)
}
