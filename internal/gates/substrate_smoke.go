package gates

import (
	"fmt"
	"path"
	"strings"

	"github.com/gate-sdk/gates/internal/gate"
	"github.com/gate-sdk/gates/internal/lazyre"
	"github.com/gate-sdk/gates/internal/registry"
)

var smokeHeredoc = lazyre.New(`^cat\s+>>?\s*"?([^"\s]*gates\.list)"?\s+<<-?\s*'?"?([A-Za-z_][A-Za-z0-9_]*)`)

// smokeRegistries joins each kit's smoke/install.sh registry heredoc to
// the compiled gates the kit owns. Publishing tree only.
func smokeRegistries(c *gate.Context, in parityInput, pub bool, found func(p string, line int, msg string)) (string, error) {
	if !pub {
		return "out of scope (not the publishing tree)", nil
	}
	noSmoke := 0
	joined := 0
	for i, r := range c.KitRoots {
		kit := vendoredKits(c.KitRoots)[i]
		var owned []rosterEntry
		for _, e := range in.roster {
			if e.owner == kit {
				owned = append(owned, e)
			}
		}
		script := registry.Join(strings.TrimRight(r, "/"), "smoke/install.sh")
		data, present, err := readOptional(c, script)
		if err != nil {
			return "", err
		}
		if !present {
			noSmoke++
			if len(owned) > 0 {
				found(script, 0, fmt.Sprintf("kit %s owns %d compiled gates and ships no smoke install registering them", kit, len(owned)))
			}
			continue
		}
		bodies := heredocRegistries(string(data))
		if len(owned) == 0 {
			continue
		}
		if len(bodies) != 1 {
			found(script, 0, fmt.Sprintf("kit %s owns compiled gates, and its smoke install has %d gates.list heredocs (want one)", kit, len(bodies)))
			continue
		}
		joined++
		body := bodies[0]
		l, err := registry.ParseList(script, []byte(body.text))
		if err != nil {
			return "", err
		}
		// A smoke script's own "# smoke-unregistered:" lines declare
		// members the heredoc leaves out, as the consumer smoke reads them.
		for i, raw := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(raw)
			if rest, ok := strings.CutPrefix(t, "# smoke-unregistered:"); ok {
				name, reason := registry.ParseUnregistered(rest)
				l.Unregistered = append(l.Unregistered, registry.Unregistered{Name: name, Reason: reason, Line: i + 1 - body.line})
			}
		}
		kin := in
		kin.roster = owned
		kin.vendored = []string{kit}
		for _, f := range registrationJoin(kin, l, nil) {
			found(script, body.line+f.line, f.msg)
		}
		for _, e := range l.Entries {
			if hasOwner(owned, e.Name) {
				continue
			}
			if ok, err := isFileAt(c, registry.Join(strings.TrimRight(r, "/"), "checks/"+e.Name+".sh")); err != nil {
				return "", err
			} else if !ok {
				found(script, body.line+e.Line, fmt.Sprintf("the smoke registry registers %s, which kit %s neither owns nor declares as a shell gate", e.Name, kit))
			}
		}
	}
	return fmt.Sprintf("%d kit smoke registries joined, %d kit roots ship no smoke install", joined, noSmoke), nil
}

type heredoc struct {
	line int // the line before the body's first line
	text string
}

// heredocRegistries answers every heredoc opened at column 0 by a cat
// whose > or >> target's basename is gates.list.
func heredocRegistries(script string) []heredoc {
	lines := strings.Split(script, "\n")
	var out []heredoc
	for i := 0; i < len(lines); i++ {
		m := smokeHeredoc.Get().FindStringSubmatch(lines[i])
		if m == nil || path.Base(m[1]) != "gates.list" {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines) && strings.TrimLeft(lines[j], "\t") != m[2]; j++ {
			body = append(body, lines[j])
		}
		out = append(out, heredoc{line: i + 1, text: strings.Join(body, "\n")})
		i = j
	}
	return out
}
