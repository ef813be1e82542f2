// Package msgtext parses the message templates of field errors and
// problems: literal text with {name} placeholders, and {{ or }} for a
// brace. The compiler parses a field's own message (msg 'text') with it,
// the catalogs every other; rendering, which knows the catalogs'
// phrases, is the catalogs'.
package msgtext

import (
	"fmt"
	"strings"
)

// Template is a parsed message template: literal text and placeholders,
// in turn. It is immutable.
type Template struct {
	Text  string // as written
	Parts []Part
}

// Part is literal text, or a placeholder when Param is set.
type Part struct {
	Lit   string
	Param string
}

// Parse parses a message template.
func Parse(text string) (*Template, error) {
	m := &Template{Text: text}
	var lit strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '{' || c == '}') && i+1 < len(text) && text[i+1] == c:
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(text[i+1:], '}')
			if end < 0 {
				return nil, fmt.Errorf("entity: message %q: a { at byte %d opens a placeholder that does not close (write {{ for a brace)", text, i)
			}
			name := text[i+1 : i+1+end]
			if !IsParamName(name) {
				return nil, fmt.Errorf("entity: message %q: placeholder {%s} is not a name of letters, digits and _", text, name)
			}
			if lit.Len() > 0 {
				m.Parts = append(m.Parts, Part{Lit: lit.String()})
				lit.Reset()
			}
			m.Parts = append(m.Parts, Part{Param: name})
			i += end + 1
		default:
			lit.WriteByte(c)
		}
	}
	if lit.Len() > 0 {
		m.Parts = append(m.Parts, Part{Lit: lit.String()})
	}
	return m, nil
}

// IsParamName reports whether s is a placeholder's name: letters, digits
// and _.
func IsParamName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// Placeholders returns the names of m's placeholders, in order.
func (m *Template) Placeholders() []string {
	var out []string
	for _, p := range m.Parts {
		if p.Param != "" {
			out = append(out, p.Param)
		}
	}
	return out
}
