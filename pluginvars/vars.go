package pluginvars

import (
	"fmt"
	"regexp"
	"runtime"
	"sort"
	"strings"
)

// pluginVariable matches $NAME, $COL-STATUS, ${COL-%CPU/R} in a plugin's argument.
var pluginVariable = regexp.MustCompile(`\$\{([\w\-%/: ]+)\}|\$([\w\-]+)`)

// UnsafeValueError is a variable whose value a shell could read as code: the plugin is not run.
type UnsafeValueError struct {
	name string // the variable, as kscope names it (COL-MESSAGE)
	char rune   // the first character that is refused
}

func (e UnsafeValueError) Error() string {
	return fmt.Sprintf("$%s holds %q, which a shell could read as code (a script reads it as \"$(printenv %s)\")",
		e.name, e.char, ShellName(e.name))
}

// ShellName is name as a shell variable may be called: each character other than a letter, a digit or _
// made _ (COL-%CPU/R: COL__CPU_R).
func ShellName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// ownValue tells whether the variable name holds text the user gave kscope (an input typed before the run,
// the kubeconfig path), substituted as it is; every other value comes from the cluster or the kubeconfig's
// names and is substituted only when shellInert.
func ownValue(name string) bool {
	return strings.HasPrefix(name, "INPUT_") || name == "KUBECONFIG"
}

// inertPunctuation is the punctuation shellInert lets through on the system kscope runs on (punctuation).
var inertPunctuation = punctuation(runtime.GOOS)

// punctuation is the punctuation no shell of goos reads as code: . _ - : / @ , + = and, but on Windows, %.
// On Windows a plugin's shell is cmd or PowerShell (its command names it, as in k9s's plugin files), and
// cmd expands %NAME% to an environment variable's value before it parses the line: two values with a %
// each would paste a variable kscope exported (any text from the cluster) into the command line as code.
// Pure.
func punctuation(goos string) string {
	if goos == "windows" {
		return "._-:/@,+="
	}
	return "._-:/@,+=%"
}

// shellInert returns the first character of v that could change how a POSIX shell (sh, bash, zsh) parses
// an argument v is pasted into, whether unquoted, in single or in double quotes, or cmd or PowerShell on
// Windows; ok when there is none. Letters, digits and inertPunctuation are inert; a value may not start
// with - (an option) or = (zsh's path expansion), except "-" alone. Bytes beyond ASCII are refused (some
// locales' multibyte characters end in a quote or backslash byte).
func shellInert(v string) (bad rune, ok bool) {
	if v != "-" && (strings.HasPrefix(v, "-") || strings.HasPrefix(v, "=")) {
		return rune(v[0]), false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte(inertPunctuation, c) >= 0:
		default:
			if c >= 0x80 {
				r := []rune(v[i:])[0]
				return r, false
			}
			return rune(c), false
		}
	}
	return 0, true
}

// Substitute replaces the variables of env in arg (longest names first: $COL-NAME before $NAME); a
// variable env does not have is left as written, for the program to read. A value from the cluster that
// is not shellInert is refused with an UnsafeValueError naming the variable: nothing is substituted then.
// Pure; safe for any goroutine.
func Substitute(arg string, env map[string]string) (string, error) {
	var longestFirst []string // the variable names, longest first, sorted at the first $NAME-suffix
	var refused error
	value := func(k string) string {
		v := env[k]
		if refused == nil && !ownValue(k) {
			if c, ok := shellInert(v); !ok {
				refused = UnsafeValueError{name: k, char: c}
			}
		}
		return v
	}
	out := pluginVariable.ReplaceAllStringFunc(arg, func(m string) string {
		name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(m, "$"), "{"), "}")
		if _, ok := env[strings.ToUpper(name)]; ok {
			return value(strings.ToUpper(name))
		}
		if strings.HasPrefix(m, "${") {
			return m
		}
		// $NAMEX: the longest known name that starts it, the rest kept ($NAME-suffix)
		if longestFirst == nil {
			for k := range env {
				longestFirst = append(longestFirst, k)
			}
			sort.Slice(longestFirst, func(i, j int) bool {
				if len(longestFirst[i]) != len(longestFirst[j]) {
					return len(longestFirst[i]) > len(longestFirst[j])
				}
				return longestFirst[i] < longestFirst[j]
			})
		}
		for _, k := range longestFirst {
			if strings.HasPrefix(strings.ToUpper(name), k) {
				return value(k) + name[len(k):]
			}
		}
		return m
	})
	if refused != nil {
		return "", refused
	}
	return out, nil
}

// SubstituteArgs substitutes env into each of args; the first refusal is returned.
func SubstituteArgs(args []string, env map[string]string) ([]string, error) {
	out := make([]string, len(args))
	for i, arg := range args {
		s, err := Substitute(arg, env)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// Environ is env as the plugin's environment: every variable under its k9s name (COL-STATUS), and a
// name a shell can read as well when that is not one (COL_STATUS: shells drop the others from the
// environment of what they run). Values are data: the environment is never parsed.
func Environ(env map[string]string) map[string]string {
	out := make(map[string]string, 2*len(env))
	for k, v := range env {
		if k == "" || strings.ContainsAny(k, "=\x00") || strings.Contains(v, "\x00") {
			continue // not expressible in an environment
		}
		out[k] = v
		if _, taken := env[ShellName(k)]; !taken {
			out[ShellName(k)] = v
		}
	}
	return out
}
