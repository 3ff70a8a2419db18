package gate

import (
	"fmt"
	"strings"
)

// QuotePath spells a path for a text report the way git spells it with
// core.quotePath=false: unchanged unless it holds a control byte, a double
// quote or a backslash, and then wrapped in double quotes with C escapes
// (\n, \t, \", \\, and \ooo octal for the other control bytes). A
// non-ASCII byte is left as written. A finding line therefore always stays
// one line, whatever the name holds; structured consumers (SARIF) read the
// real path from Finding.Path.
func QuotePath(p string) string {
	if !needsQuote(p) {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
				continue
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func needsQuote(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// UnquotePath reads a path as git prints it in a line-oriented listing: a
// name opening with '"' is C-quoted (git's quote_c_style: \a \b \t \n \v
// \f \r \" \\ and three-digit octal \ooo for any byte), any other is
// literal. A quoted name that does not close, ends in a lone escape or
// carries an escape git never writes is an error.
func UnquotePath(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	if len(s) < 2 || s[len(s)-1] != '"' {
		return "", fmt.Errorf("quoted path %s does not close", s)
	}
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '"' {
			return "", fmt.Errorf("quoted path %s holds an unescaped quote", s)
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", fmt.Errorf("quoted path %s ends in a lone backslash", s)
		}
		switch e := body[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"', '\\':
			b.WriteByte(e)
		default:
			if e < '0' || e > '3' || i+2 >= len(body) {
				return "", fmt.Errorf("quoted path %s carries the escape \\%c, which git never writes", s, e)
			}
			v := 0
			for k := 0; k < 3; k++ {
				d := body[i+k]
				if d < '0' || d > '7' {
					return "", fmt.Errorf("quoted path %s carries a malformed octal escape", s)
				}
				v = v*8 + int(d-'0')
			}
			b.WriteByte(byte(v))
			i += 2
		}
	}
	return b.String(), nil
}

// Count spells n with its noun, singular for one: "1 gate", "2 gates".
// Every count a person reads goes through it, so no line says "1 gates".
func Count(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
