package entity_test

// The reference model's reading of an *http.Request, written from
// docs/requests.md, go doc entity (MakeRequest, Bind, DenyUnknown, Strict)
// and go doc dsl (Sources), with the request issue's statements where the
// docs do not say yet: the method, the body (JSON only: a form is a 415
// unless the entity reads forms, which no generated entity does), where
// each field is read (path, query, header, cookie, the body, else the
// query of a request whose method has no body), parameters as text read
// strictly (an integer is decimal digits with an optional sign; a repeated
// scalar query key fails), and the keys DenyUnknown refuses.
//
// "An integer is decimal digits with an optional sign": the model reads
// the sign as a minus only, as Strict's doc refuses "+27" in a body.

import (
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/rules"
)

// mdlReqIn is the request a call reads its parameters from.
type mdlReqIn struct {
	r     *http.Request
	query url.Values
	keys  []string // the query's keys, distinct, in order
	// path reads a path parameter ("" is none): the registry's PathValues,
	// else http.Request.PathValue.
	path func(name string) string
	// bodyFromQuery: the request has no body and its method none, so that
	// its body fields are read from the query; noBodyNoMethodBody is so
	// for an entity of parameters only too.
	bodyFromQuery      bool
	noBodyNoMethodBody bool
}

// mdlParam is a parameter's value: its texts (a repeated key's several),
// where it was and under which name.
type mdlParam struct {
	vals     []string
	in, name string
}

// mdlParamText is one parameter text, which a field converts as a
// parameter: strictly, an integer is decimal digits with an optional minus.
type mdlParamText string

// mdlQueryIn is the query string read as the body of a request without one:
// an object of texts.
type mdlQueryIn struct {
	q    url.Values
	keys []string
}

// mdlHasBody reports whether requests of the method carry a body, whose
// absence is an empty object: POST, PUT, PATCH.
func mdlHasBody(method string) bool {
	return method == "POST" || method == "PUT" || method == "PATCH"
}

// mdlParamsOnly reports an entity whose requests read parameters only:
// every top-level field a request reads (no readonly one) is a parameter.
// Its requests read no body at all.
func mdlParamsOnly(e *mdlEntity) bool {
	n := 0
	for _, f := range e.fields {
		if f.readOnly {
			continue
		}
		if f.kind != dsl.FieldValue || f.src == "" {
			return false
		}
		n++
	}
	return n > 0 || len(e.fields) > 0 // no body field to read (readonly ones only): the body is unread too
}

// mdlQueryKeys gives a raw query's keys, distinct, in order.
func mdlQueryKeys(raw string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, part := range strings.FieldsFunc(raw, func(r rune) bool { return r == '&' }) {
		k, _, _ := strings.Cut(part, "=")
		k, err := url.QueryUnescape(k)
		if err != nil || seen[k] {
			continue
		}
		seen[k] = true
		keys = append(keys, k)
	}
	return keys
}

// checkMethod reports whether the entity's declared methods take r's.
func mdlMethodAllowed(e *mdlEntity, method string) bool {
	if len(e.methods) == 0 {
		return true
	}
	for _, m := range e.methods {
		if m == method || method == http.MethodHead && m == http.MethodGet { // go doc MakeRequest: HEAD where GET is
			return true
		}
	}
	return false
}

// mdlIsJSONType reports a JSON media type: application/json or any +json.
func mdlIsJSONType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// readBody reads r's body: its text without the white space around it;
// ok is false past the registry's body limit (413).
func (c *mdlCall) readBody(r *http.Request) (string, bool) {
	if r.Body == nil {
		return "", true
	}
	b, _ := io.ReadAll(r.Body)
	limit := c.reg.bodyLimit
	if limit == 0 {
		limit = 1 << 20
	}
	if int64(len(b)) > limit {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

// openRequest sets up the call's request: its query, its path values.
func (c *mdlCall) openRequest(r *http.Request) {
	in := &mdlReqIn{r: r, query: url.Values{}}
	if r.URL != nil {
		in.query = r.URL.Query()
		in.keys = mdlQueryKeys(r.URL.RawQuery)
	}
	in.path = r.PathValue
	if c.reg.pathValues != nil {
		in.path = func(name string) string { return c.reg.pathValues(r, name) }
	}
	c.req = in
	c.headers = r.Header
}

// readRequest reads a request: the object its body fields are read from,
// or a failure ("method" 405, "tooLarge" 413, "media" 415, "invalidJSON"
// 400).
func (c *mdlCall) readRequest(e *mdlEntity, r *http.Request) (any, string) {
	if r == nil {
		return nil, ""
	}
	if !mdlMethodAllowed(e, r.Method) {
		return nil, "method"
	}
	c.openRequest(r)
	if mdlParamsOnly(e) {
		// an entity of parameters only leaves the body unread
		c.req.noBodyNoMethodBody = !mdlHasBody(r.Method)
		return nil, ""
	}
	text, ok := c.readBody(r)
	if !ok {
		return nil, "tooLarge"
	}
	if text == "" {
		// no body: a method that has one sends an empty object; another
		// sends its body fields in the query
		if mdlHasBody(r.Method) {
			return &mdlJSON{kind: mdlJObj, obj: map[string]*mdlJSON{}}, ""
		}
		c.req.bodyFromQuery = true
		return &mdlQueryIn{q: c.req.query, keys: c.req.keys}, ""
	}
	if !mdlIsJSONType(r.Header.Get("Content-Type")) {
		return nil, "media"
	}
	js, err := mdlParseJSON([]byte(text))
	if err != nil || js.kind != mdlJObj {
		return nil, "invalidJSON"
	}
	return js, ""
}

// readParam reads a top-level source field from the request.
func (c *mdlCall) readParam(f *mdlField) (any, bool, mdlPath) {
	p := mdlPath{{key: f.srcName, in: f.src}}
	var vals []string
	r := c.req.r
	switch f.src {
	case "path":
		if v := c.req.path(f.srcName); v != "" {
			vals = []string{v}
		}
	case "query":
		vals = c.req.query[f.srcName]
	case "header":
		vals = r.Header.Values(f.srcName)
	case "cookie":
		if ck, err := r.Cookie(f.srcName); err == nil {
			vals = []string{ck.Value}
		}
	}
	if len(vals) == 0 {
		return nil, false, p
	}
	return mdlParam{vals: vals, in: f.src, name: f.srcName}, true, p
}

// paramInput turns a parameter into the input a field reads: a list field
// takes every value, any other field one value, as text (a repeated query
// key for it fails, naming the parameter, but that Lax reads its first
// value; a repeated header gives its first value).
func (c *mdlCall) paramInput(f *mdlField, pv mdlParam, p, op mdlPath) (any, bool) {
	if f.kind == dsl.FieldValue && (f.list || f.typ == rules.List || f.typ == rules.Any && len(pv.vals) > 1 && pv.in == "query" && c.strict) {
		// a list field takes every value; a repeated query key is a list,
		// which a none field, taking any value, takes too (Lax: the first)
		out := make([]any, len(pv.vals))
		for i, v := range pv.vals {
			if f.list {
				out[i] = mdlParamText(v)
			} else {
				out[i] = v
			}
		}
		return out, true
	}
	if len(pv.vals) > 1 && pv.in == "query" && c.strict { // Lax reads the first
		c.errs = append(c.errs, mdlErr{path: p.String(), outPath: op.String(), in: p.in(), anyCode: true, code: "(repeated)"})
		return nil, false
	}
	return mdlParamText(pv.vals[0]), true
}

// convertParam converts a parameter's text to a value of typ, as convert
// does: a parameter is text, read strictly like any value, but that an
// integer is decimal digits with an optional sign and nothing else.
func (c *mdlCall) convertParam(typ rules.Kind, s string) (rules.Value, any, bool, bool) {
	bad := func() (rules.Value, any, bool, bool) { return rules.Value{}, nil, true, c.strict }
	switch typ {
	case rules.Any:
		return mdlNoneValue(s), s, false, false
	case rules.List, rules.Object:
		return bad()
	case rules.Int:
		if c.strict {
			// the sign is a minus: Strict's doc refuses "+27"
			digits := strings.TrimPrefix(s, "-")
			if digits == "" || strings.Trim(digits, "0123456789") != "" {
				return bad()
			}
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return bad()
			}
			return rules.Value{Kind: rules.Int, Int: n}, nil, false, false
		}
	}
	v, ok := mdlConvertScalar(typ, s, c.strict)
	if !ok {
		return bad()
	}
	return v, nil, false, false
}

// denyQuery reports, under DenyUnknown, the query keys no field reads:
// those of the query fields and, in a request without a body whose method
// has none, of the body fields.
func (c *mdlCall) denyQuery(e *mdlEntity) {
	if !c.deny || c.req == nil {
		return
	}
	known := map[string]bool{}
	c.queryKnown(e.fields, known, 0)
	if c.req.bodyFromQuery || c.req.noBodyNoMethodBody {
		// the query is the body: its body keys, and readonly ones, are known
		c.known(e.fields, true, true, known)
	}
	for _, k := range c.req.keys {
		if !known[k] {
			c.errs = append(c.errs, mdlErr{path: mdlPath{{key: k}}.String(), in: "query", code: "unknown"})
		}
	}
}

// queryKnown gives the names of the query fields of a request's top level,
// merged entities' included.
func (c *mdlCall) queryKnown(fields []*mdlField, into map[string]bool, depth int) {
	vis := c.visible(fields, false)
	for _, f := range fields {
		if !vis[f] {
			continue
		}
		if f.merge && depth < 8 {
			if e := c.reg.ents[f.ref]; e != nil {
				c.queryKnown(e.fields, into, depth+1)
			}
			continue
		}
		if f.src == "query" {
			into[f.srcName] = true
		}
	}
}

// mdlAcceptLang gives the language an Accept-Language header picks among
// the built-in catalogs (en, ja): the tag of highest q whose language is
// one of them, q-values honoured, "" (English) when none is.
func mdlAcceptLang(h string) string {
	type tag struct {
		lang string
		q    float64
	}
	var tags []tag
	for _, part := range strings.Split(h, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				continue
			}
			q = f
		}
		if name = strings.TrimSpace(name); name != "" && q > 0 {
			tags = append(tags, tag{name, q})
		}
	}
	sort.SliceStable(tags, func(i, j int) bool { return tags[i].q > tags[j].q })
	for _, t := range tags {
		base, _, _ := strings.Cut(strings.ToLower(t.lang), "-")
		if base == "ja" || base == "en" {
			return base
		}
	}
	return ""
}
