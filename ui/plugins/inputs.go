package plugins

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"kscope/config"
)

// askInputs asks for p's inputs one after the other (k9s 0.51's inputs: string, number, bool on the prompt
// line, dropdown as a list), then gives done their values as INPUT_NAME (the name upper-cased). A required
// input left empty, or a number or bool that cannot be read, stops there with one line; esc stops too.
// UI goroutine only.
func (s *Set) askInputs(p config.Plugin, done func(map[string]string)) {
	values := map[string]string{}
	var ask func(i int)
	ask = func(i int) {
		if i == len(p.Inputs) {
			done(values)
			return
		}
		in := p.Inputs[i]
		take := func(text string) {
			v, err := inputValue(in, text)
			if err != nil {
				s.h.Errorf("plugin %s not run: %s", p.Name, err)
				return
			}
			values["INPUT_"+strings.ToUpper(in.Name)] = v
			ask(i + 1)
		}
		label := in.Label
		if label == "" {
			label = in.Name
		}
		if in.Type == "dropdown" {
			s.h.Choose(fmt.Sprintf("plugin %s: %s", p.Name, label), in.Options, max(0, slices.Index(in.Options, in.Default)),
				func(j int) { take(in.Options[j]) })
			return
		}
		hint := map[string]string{"number": " (a number)", "bool": " (true/false)"}[in.Type]
		if in.Required {
			hint += " *"
		}
		s.h.Ask(fmt.Sprintf("plugin %s: %s%s: ", p.Name, label, hint), in.Default, take)
	}
	ask(0)
}

// inputValue checks text, typed for in, and returns its value.
func inputValue(in config.PluginInput, text string) (string, error) {
	text = strings.TrimSpace(text)
	switch {
	case text == "" && in.Required:
		return "", fmt.Errorf("%s is required", in.Name)
	case text == "":
		return "", nil
	case in.Type == "number":
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return "", fmt.Errorf("%s: %q is not a number", in.Name, text)
		}
	case in.Type == "bool":
		switch strings.ToLower(text) {
		case "true", "t", "yes", "y", "1":
			return "true", nil
		case "false", "f", "no", "n", "0":
			return "false", nil
		}
		return "", fmt.Errorf("%s: %q is not true or false", in.Name, text)
	}
	return text, nil
}
