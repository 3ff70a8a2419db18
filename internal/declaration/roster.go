package declaration

import "strings"

// roleRules fixes each declaration-bearing role's token rule.
var roleRules = map[string]Rule{
	"gates":     GateName,
	"knobs":     Backticked,
	"platforms": Backticked,
	"authoring": Bolded,
	"behavior":  Bolded,
}

// RuleOf answers a role's token rule; false for a role declaring no tokens.
func RuleOf(role string) (Rule, bool) {
	r, ok := roleRules[role]
	return r, ok
}

// Headings answers the headings a role is read under: its roster heading,
// then each alias, from the elements of GATE_SDK_RELEASE_SECTIONS and
// GATE_SDK_RELEASE_SECTION_ALIASES (`<role>: <heading>` each; the knob
// engine has already refused a malformed element). A roster without the
// role answers none, which every reader takes as the empty set.
func Headings(role string, roster, aliases []string) []string {
	var out []string
	for _, list := range [][]string{roster, aliases} {
		for _, e := range list {
			r, h, ok := strings.Cut(e, ":")
			if ok && strings.TrimSpace(r) == role && strings.TrimSpace(h) != "" {
				out = append(out, strings.TrimSpace(h))
			}
		}
	}
	return out
}
