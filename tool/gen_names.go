package tool

// The Go names of expose gen: an entity's or a field's declared name
// Go-cased into an exported identifier, and clashes settled by a number.

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/expose-go/expose/internal/jsonfields"
)

// initialisms are the words Go-cased all in capitals, as Go code spells
// them (golint's list): "user_id" is UserID, "home_url" HomeURL.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "QPS": true, "RAM": true, "RHS": true,
	"RPC": true, "SLA": true, "SMTP": true, "SQL": true, "SSH": true, "TCP": true,
	"TLS": true, "TTL": true, "UDP": true, "UI": true, "UID": true, "UUID": true,
	"URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true, "XMPP": true,
	"XSRF": true, "XSS": true,
}

// goName returns the exported Go identifier of a declared name: its words
// (runs of letters and digits, split where a lower-case letter or a digit
// meets an upper-case one, and before the last capital of a run of them
// that a lower-case letter follows) each capitalized, initialisms in
// capitals, a word written all in capitals otherwise in title case, and
// whatever is neither a letter nor a digit left out:
// "created_at" is CreatedAt, "X-Request-Id" XRequestID, "HTTPServer"
// HTTPServer, "USER_NAME" UserName. ok is false when the result is no
// exported identifier: empty ("-"), or starting with a digit ("2fa") or
// with a letter that has no upper case ("名前").
func goName(name string) (id string, ok bool) {
	var b strings.Builder
	for _, run := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		for _, w := range splitWords(run) {
			b.WriteString(capitalize(w))
		}
	}
	id = b.String()
	for _, r := range id {
		return id, unicode.IsUpper(r)
	}
	return id, false
}

// splitWords splits a run of letters and digits into its words, at the
// case changes goName names.
func splitWords(run string) []string {
	rs := []rune(run)
	var words []string
	start := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		lowerToUpper := (unicode.IsLower(prev) || unicode.IsDigit(prev)) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if lowerToUpper || acronymEnd {
			words = append(words, string(rs[start:i]))
			start = i
		}
	}
	return append(words, string(rs[start:]))
}

// capitalize returns the word as goName writes it.
func capitalize(w string) string {
	if u := strings.ToUpper(w); initialisms[u] {
		return u
	}
	rs := []rune(w)
	allUpper := len(rs) > 1
	for _, r := range rs {
		if unicode.IsLower(r) {
			allUpper = false
			break
		}
	}
	if allUpper {
		return string(unicode.ToUpper(rs[0])) + strings.ToLower(string(rs[1:]))
	}
	return string(unicode.ToUpper(rs[0])) + string(rs[1:])
}

// scope hands out the names of one Go scope (a package's types, a
// struct's fields): the first to ask for a name gets it, the next ones the
// name followed by 2, 3…, the first of those still free.
type scope map[string]bool

func (s scope) claim(name string) string {
	got := name
	for i := 2; s[got]; i++ {
		got = name + strconv.Itoa(i)
	}
	s[got] = true
	return got
}

// validTag reports whether encoding/json reads name from a struct tag:
// a name it does not accept would be read as the Go field's name instead.
func validTag(name string) bool { return jsonfields.ValidTag(name) }
