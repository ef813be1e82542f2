package entity

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/text/language"

	"github.com/expose-go/expose/internal/msgtext"
)

// Messages: the catalogs a FieldError's Message is rendered from, keyed by
// the error's code, with its params as placeholders. A message is rendered
// once, when the error is built; nothing here runs for a field that passes.
//
// A catalog maps keys to message templates. Keys are:
//
//	code              "required", "min", "email", a custom rule's name
//	code.kind         the message for a value of one kind: "min.string",
//	                  "min.number", "min.list", "len.object" (the kind the
//	                  failing value had)
//	code.kind.exact   range with equal bounds: "range.string.exact"
//	code.param=value  a phrase that stands for a param's value in the
//	                  messages of that code: "type.type=number" → "an integer"
//
// A template's placeholders are {field} (the field's input name) and the
// failing rule's params ({min}); {{ and }} write braces.
//
// English is the first language and the fallback of every other: a key a
// catalog lacks is looked up in English, and a code English lacks too is a
// rule's own error text. The built-in English catalog therefore names only
// the codes no rule's error spells (required, type, depth, limit, default):
// a built-in rule's English message is its own text, as a custom rule's
// is, until a catalog names its code.

// builtinMessages are the built-in catalogs, English first: data, one
// file a language (catalog_en.go, catalog_ja.go).
var builtinMessages = []struct {
	lang string
	msgs map[string]string
}{
	{"en", catalogEN},
	{"ja", catalogJA},
}

// keyInvalid is the key of the message that stands for every other under a
// secret field, and for a rule that panicked: "is not valid". It is no
// code: the FieldError keeps the failing rule's.
const keyInvalid = "invalid"

// codeParams names the params of the codes that are no rule's: what a
// catalog's messages for them may hold. (A rule's params are its Def's.)
var codeParams = map[string][]string{
	keyInvalid:  nil,
	"required":  nil,
	"immutable": nil,
	"type":      {"type", "got"},
	"unknown":   nil,
	"depth":     {"limit"},
	"json":      nil,
	"limit":     {"omitted"},
	"default":   nil,
	"value":     nil,

	"required_if":        {"other", "values"},
	"required_if.secret": {"other"},
	"required_with":      {"others"},
	"required_without":   {"others"},
	"excluded_with":      {"others"},
}

// message is a parsed message template (package msgtext).
type message = msgtext.Template

// parseMessage parses a message template.
func parseMessage(text string) (*message, error) { return msgtext.Parse(text) }

// catalogs are the languages a registry has messages in, English first,
// a matcher over them, and the codes declared with DeclareCode (each with
// the params its messages may hold). They are immutable: SetMessages and
// DeclareCode replace them.
type catalogs struct {
	tags    []language.Tag
	byLang  []map[string]*message
	matcher language.Matcher
	codes   map[string][]string
}

// builtinCatalogs parses the built-in messages once, on first need: the
// catalogs of catalog_en.go and catalog_ja.go.
var builtinCatalogs = sync.OnceValue(func() *catalogs {
	c := &catalogs{}
	for _, b := range builtinMessages {
		msgs := make(map[string]*message, len(b.msgs))
		for k, text := range b.msgs {
			m, err := parseMessage(text)
			if err != nil {
				panic(err) // the built-in messages are tested
			}
			msgs[k] = m
		}
		c.tags = append(c.tags, language.MustParse(b.lang))
		c.byLang = append(c.byLang, msgs)
	}
	c.matcher = language.NewMatcher(c.tags)
	return c
})

// match returns the index of the language that pref (a tag, or an
// Accept-Language value with q-values) asks for, or 0, English, when it
// asks for none the catalogs have. Entries that do not parse are skipped
// (see acceptLanguage).
func (c *catalogs) match(pref string) int {
	if pref == "" {
		return 0
	}
	var arr [maxLanguageEntries]weightedTag
	tags := acceptLanguage(pref, arr[:0])
	if len(tags) == 0 {
		return 0
	}
	want := make([]language.Tag, len(tags))
	for i, t := range tags {
		want[i] = t.tag
	}
	_, i, conf := c.matcher.Match(want...)
	if conf == language.No {
		return 0
	}
	return i
}

// The bounds of what acceptLanguage reads of an Accept-Language value: net/http
// takes headers of a megabyte, and matching costs by the entry.
const (
	maxLanguageBytes   = 4 << 10 // the first 4 KiB of the value
	maxLanguageEntries = 32      // the first 32 entries
	maxLanguageRange   = 64      // the longest language range of an entry
)

// weightedTag is one entry of an Accept-Language value: its tag and its
// q-value in thousandths.
type weightedTag struct {
	tag language.Tag
	q   int
}

// acceptLanguage appends to dst the tags an Accept-Language value (RFC
// 9110 12.5.4), or a single tag, asks for, most wanted first: by q-value,
// in the order written among equal ones. It reads at most the value's
// first 4 KiB and its first 32 entries, so that a header of a megabyte
// costs what one of 4 KiB does. An entry that does not parse (a bad
// q-value, a range that is no tag) is skipped and the others kept; of a
// range that is well-formed only in part, the part that is ("ja-JP-mac"
// asks for ja-JP); "*" and the entries of q=0 ask for nothing. The q of a
// weight is read in either case, as RFC 9110 (12.4.2) says.
func acceptLanguage(s string, dst []weightedTag) []weightedTag {
	if len(s) > maxLanguageBytes {
		s = s[:maxLanguageBytes]
	}
	for entries := 0; s != "" && entries < maxLanguageEntries; entries++ {
		var entry string
		entry, s, _ = strings.Cut(s, ",")
		rng, weight, hasWeight := strings.Cut(entry, ";")
		rng = strings.Trim(rng, " \t")
		q := 1000
		if hasWeight {
			var ok bool
			if q, ok = parseQ(strings.Trim(weight, " \t")); !ok {
				continue
			}
		}
		if q == 0 || rng == "" || rng == "*" || !isLanguageRange(rng) {
			continue
		}
		tag, err := language.Parse(rng)
		if base, _, _ := tag.Raw(); err != nil && base.String() == "und" {
			continue // nothing of it is a language
		}
		// Stable: after the entries of an equal or a greater q.
		i := len(dst)
		dst = append(dst, weightedTag{tag, q})
		for ; i > 0 && dst[i-1].q < q; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = weightedTag{tag, q}
	}
	return dst
}

// isLanguageRange reports whether s has the bytes of a language range:
// letters, digits and hyphens, at most maxLanguageRange of them.
func isLanguageRange(s string) bool {
	if len(s) > maxLanguageRange {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// parseQ reads a weight, "q=0.8" (q in either case), as thousandths.
func parseQ(w string) (int, bool) {
	if len(w) < 3 || w[0] != 'q' && w[0] != 'Q' || w[1] != '=' {
		return 0, false
	}
	v := w[2:]
	if v[0] != '0' && v[0] != '1' {
		return 0, false
	}
	q := int(v[0]-'0') * 1000
	if len(v) > 1 {
		frac := v[1:]
		if frac[0] != '.' || len(frac) > 4 {
			return 0, false
		}
		scale := 100
		for i := 1; i < len(frac); i++ {
			d := frac[i]
			if d < '0' || d > '9' || v[0] == '1' && d != '0' {
				return 0, false
			}
			q += int(d-'0') * scale
			scale /= 10
		}
	}
	return q, true
}

// lookup returns the message of the first of keys that language li, or
// else English, has.
func (c *catalogs) lookup(li int, keys []string) (*message, int) {
	for _, l := range [2]int{li, 0} {
		for _, k := range keys {
			if m, ok := c.byLang[l][k]; ok {
				return m, l
			}
		}
		if li == 0 {
			break
		}
	}
	return nil, 0
}

// render writes m with field and params in place of its placeholders. A
// param's value is written as the phrase that catalog li (or English) has
// for it under code ("type.got=string" → "a string"), else as its text; a
// placeholder the failure has no value for is written as nothing.
func (c *catalogs) render(m *message, li int, code, field string, params map[string]any) string {
	if len(m.Parts) == 1 && m.Parts[0].Param == "" {
		return m.Parts[0].Lit
	}
	var b strings.Builder
	for _, p := range m.Parts {
		switch {
		case p.Param == "":
			b.WriteString(p.Lit)
		case p.Param == "field":
			b.WriteString(field)
		default:
			v, ok := params[p.Param]
			if !ok {
				continue
			}
			s := paramText(v)
			if code != "" && c != nil {
				if ph, _ := c.lookup(li, []string{code + "." + p.Param + "=" + s}); ph != nil {
					s = ph.Text
				}
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

// text renders the problem text key (see catalog_en.go) in language li,
// or else English, with params in its placeholders; "" when no catalog
// has it.
func (c *catalogs) text(li int, key string, params map[string]any) string {
	m, l := c.lookup(li, []string{key})
	if m == nil {
		return ""
	}
	return c.render(m, l, problemCode, "", params)
}

// maxListed is how many values of a list param (in's) a message names.
const maxListed = 20

// paramText formats a param's value for a message.
func paramText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		if math.Abs(x) < 1e21 {
			return strconv.FormatFloat(x+0, 'f', -1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any: // the values of `in`: the first maxListed of them
		n := min(len(x), maxListed)
		parts := make([]string, n, n+1)
		for i, e := range x[:n] {
			parts[i] = paramText(e)
		}
		if len(x) > n {
			parts = append(parts, "… ("+strconv.Itoa(len(x)-n)+" more)")
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}

// messages returns the registry's catalogs; a nil registry's are the
// built-in ones.
func (r *Registry) messages() *catalogs {
	if r != nil {
		if c := r.msgs.Load(); c != nil {
			return c
		}
	}
	return builtinCatalogs()
}

// RequestLang returns the language MakeRequest and Bind write the messages
// of req's errors in: the BCP 47 tag ("ja", "en") of the registry's
// language (see SetMessages) that req's Accept-Language header picks, "en"
// when it picks none and for a nil req. A handler passes it on, as
// Lang(tag), to the calls it makes for the request, and picks its own texts
// by it.
func (r *Registry) RequestLang(req *http.Request) string {
	l := r.requestLang(req, nil)
	return l.cat.tags[l.li].String()
}

// DeclareCode declares code, the code of a check of the application's own
// (a handler's "no customer 42", "sku not in the catalogue"), with its
// messages by language: msgs maps a BCP 47 tag to a message template, as
// SetMessages takes them, and holds English ("en"), the fallback of every
// language. The params of the code are the placeholders its messages name
// (but {field}, the last name of the error's pointer). NewFieldError
// builds such an error and Entity.Fail (or a check of Entity.Checked)
// answers it, with the library's own errors, in the request's language;
// an InputError's Code names one as the detail of a handler's 4xx, which
// WriteRequestError writes in the request's language.
//
//	err := reg.DeclareCode("no_customer", map[string]string{
//		"en": "names no customer ({id})",
//		"ja": "顧客{id}は存在しません",
//	})
//
// A code is a name of letters, digits, _ and -, neither a rule's (nor an
// alias's) nor one of the package's own codes. Declaring a code again
// replaces its params and its messages in the languages given;
// SetMessages takes its message in more languages. DeclareCode changes
// nothing when it returns an error.
func (r *Registry) DeclareCode(code string, msgs map[string]string) error {
	switch {
	case r == nil:
		return errNilRegistry
	case !isCodeName(code):
		return fmt.Errorf("entity: DeclareCode: code %q is not a name of letters, digits, _ and -", code)
	case code == problemCode || code == "field":
		return fmt.Errorf("entity: DeclareCode: code %q is reserved", code)
	case isOwnCode(code):
		return fmt.Errorf("entity: DeclareCode: %q is a code of the package's own", code)
	}
	if _, found := r.env.Rules.Lookup(code); found {
		return fmt.Errorf("entity: DeclareCode: %q is the name of a rule: its messages are set with SetMessages", code)
	}
	if _, ok := msgs["en"]; !ok {
		return fmt.Errorf("entity: DeclareCode: code %q has no English message (\"en\"), the fallback of every language", code)
	}
	langs := make([]string, 0, len(msgs))
	for l := range msgs {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	tags := make([]language.Tag, len(langs))
	parsed := make([]*message, len(langs))
	var params []string
	var errs []error
	for i, l := range langs {
		tag, err := language.Parse(l)
		if err != nil {
			errs = append(errs, fmt.Errorf("entity: DeclareCode: code %q: language %q: %v", code, l, err))
			continue
		}
		m, err := parseMessage(msgs[l])
		if err != nil {
			errs = append(errs, fmt.Errorf("entity: DeclareCode: code %q, language %q: %w", code, l, err))
			continue
		}
		tags[i], parsed[i] = tag, m
		for _, p := range m.Placeholders() {
			if p != "field" && !containsString(params, p) {
				params = append(params, p)
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	sort.Strings(params)
	r.mu.Lock()
	defer r.mu.Unlock()
	old := r.messages()
	codes := make(map[string][]string, len(old.codes)+1)
	maps.Copy(codes, old.codes)
	codes[code] = params
	r.msgs.Store(&catalogs{tags: old.tags, byLang: old.byLang, matcher: old.matcher, codes: codes})
	for i, tag := range tags {
		r.storeMessages(tag, map[string]*message{code: parsed[i]})
	}
	return nil
}

// isOwnCode reports whether code is one of the package's own codes.
func isOwnCode(code string) bool {
	_, own := codeParams[code]
	return own
}

// isCodeName reports whether s is a name of letters, digits, _ and -.
func isCodeName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// SetMessages adds the messages msgs to the registry's catalog for the
// language lang (a BCP 47 tag: "ja", "fr", "pt-BR"), creating the language
// if the registry has none by that tag, and overriding single messages of
// one it has. Keys are codes ("required", "min", a custom rule's name),
// optionally with the kind of the failing value ("min.string",
// "min.number", "min.list", "range.string.exact" for equal bounds), or
// phrases for a param's value ("type.got=string"). Placeholders are
// {field} (the field's input name) and the code's params (a rule's
// Def.Params; "type" and "got" for type; "limit" for depth; "omitted" for
// limit; a code declared with DeclareCode, the placeholders of its
// messages); {{ and }} write braces.
//
// Keys that start with "problem." are the titles and details of the
// problems WriteError writes: "problem.title.validation" and the title of
// each problem type, "problem.title.404" for the title of an about:blank
// problem of that status, "problem.validation" ("{count} fields failed
// validation"), "problem.json.syntax" ("… at byte {offset}, {reason}"), and
// the others the package's InputErrors name (their English texts are
// their Msg); "problem.reason=…" and "problem.got=…" are phrases of their
// params. A text's placeholders are those of its English text.
//
// A key a language lacks is looked up in English, and a code English
// lacks is the rule's own error text. The map is copied; SetMessages is
// safe for concurrent use with Make and MakeRequest, and a call already
// running keeps the messages it started with. It changes nothing when any
// key or message is not valid, and reports every one that is not.
func (r *Registry) SetMessages(lang string, msgs map[string]string) error {
	if r == nil {
		return errNilRegistry
	}
	tag, err := language.Parse(lang)
	if err != nil {
		return fmt.Errorf("entity: SetMessages: language %q: %v", lang, err)
	}
	parsed := make(map[string]*message, len(msgs))
	var errs []error
	keys := make([]string, 0, len(msgs))
	for k := range msgs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m, err := r.checkMessage(k, msgs[k])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		parsed[k] = m
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.storeMessages(tag, parsed)
	return nil
}

// storeMessages replaces the registry's catalogs by copies holding msgs
// in the language tag, over what it had there. The caller holds r.mu.
func (r *Registry) storeMessages(tag language.Tag, parsed map[string]*message) {
	old := r.messages()
	c := &catalogs{tags: old.tags, byLang: old.byLang, matcher: old.matcher, codes: old.codes}
	li := -1
	for i, t := range old.tags {
		if t == tag {
			li = i
		}
	}
	c.byLang = append([]map[string]*message(nil), old.byLang...)
	if li < 0 {
		c.tags = append(append([]language.Tag(nil), old.tags...), tag)
		c.byLang = append(c.byLang, map[string]*message{})
		c.matcher = language.NewMatcher(c.tags)
		li = len(c.tags) - 1
	}
	merged := make(map[string]*message, len(c.byLang[li])+len(parsed))
	for k, m := range c.byLang[li] {
		merged[k] = m
	}
	for k, m := range parsed {
		merged[k] = m
	}
	c.byLang[li] = merged
	r.msgs.Store(c)
}

// checkMessage parses one message given to SetMessages, checking its key
// and its placeholders.
func (r *Registry) checkMessage(key, text string) (*message, error) {
	code, rest, _ := strings.Cut(key, ".")
	if code == problemCode {
		return checkProblemText(key, text)
	}
	params, ok := codeParams[code]
	if declared, isCode := r.messages().codes[code]; !ok && isCode {
		params, ok = declared, true
		if rest != "" {
			return nil, fmt.Errorf("entity: SetMessages: key %q: the code %q, declared with DeclareCode, takes no kind or phrase", key, code)
		}
	}
	if !ok {
		def, found := r.env.Rules.Lookup(code)
		if !found {
			return nil, fmt.Errorf("entity: SetMessages: key %q: no code or rule is named %q", key, code)
		}
		if name := strings.ToLower(def.Name); name != code {
			return nil, fmt.Errorf("entity: SetMessages: key %q: %q is an alias: the code is %q", key, code, name)
		}
		params = def.Params
	}
	m, err := parseMessage(text)
	if err != nil {
		return nil, fmt.Errorf("entity: SetMessages: key %q: %w", key, err)
	}
	if param, _, phrase := strings.Cut(rest, "="); phrase {
		if !containsString(params, param) {
			return nil, fmt.Errorf("entity: SetMessages: key %q: %q has no param %q", key, code, param)
		}
		if len(m.Placeholders()) > 0 {
			return nil, fmt.Errorf("entity: SetMessages: key %q: a phrase holds no placeholders", key)
		}
		return m, nil
	}
	switch rest {
	case "", "string", "number", "list", "object", "string.exact", "number.exact", "list.exact":
	default:
		return nil, fmt.Errorf("entity: SetMessages: key %q: %q is no kind (string, number, list, object; with .exact for equal bounds)", key, rest)
	}
	for _, p := range m.Placeholders() {
		if p != "field" && !containsString(params, p) {
			return nil, fmt.Errorf("entity: SetMessages: key %q: placeholder {%s} is not {field} nor a param of %q (%s)", key, p, code, strings.Join(params, ", "))
		}
	}
	return m, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
