package api

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"path"
	"sort"
	"strings"
)

// The docs page: one HTML page made from an OpenAPI document, its style
// inline, no script, no request to any other place. Each operation with
// its parameters, request body and responses, then each component schema,
// every field with its type, its rules in words, its description and
// examples.

//go:embed docs.html
var docsTemplate string

var docsPage = template.Must(template.New("docs").Funcs(template.FuncMap{
	"anchor": schemaAnchor,
	"lower":  strings.ToLower,
	"depth":  func(d int) int { return min(d, 3) },
	"table":  func(label string, rows []row) fieldTable { return fieldTable{label, rows} },
}).Parse(docsTemplate))

// fieldTable is a table of fields or parameters.
type fieldTable struct {
	Label string
	Rows  []row
}

// page is what the template writes.
type page struct {
	Title, Version, Description string
	OpenAPIHref                 string // the document, relative to the page
	Operations                  []operation
	Schemas                     []component
}

type operation struct {
	Anchor, Method, Path string
	ID, Summary, Desc    string
	Tags                 []string
	Security             []string
	Params               []row
	BodyMedia            string
	BodyRequired         bool // a request without a body is refused
	Body                 *described
	BodyLink             string // the component of the body, when it is one
	Responses, Problems  []response
	Deprecated           bool
}

type response struct {
	Status, Desc, Media, Link string
	Headers                   []header
	Stream                    bool // the body is a stream of Link objects (the media type's x-stream)
}

// header is a header of a response.
type header struct {
	Name, Desc string
}

type component struct {
	Name, Anchor string
	described
}

// methodOrder is the order of an path's operations on the page.
var methodOrder = []string{"get", "post", "put", "patch", "delete", "head", "options", "trace"}

// renderDocs returns the docs page of the OpenAPI document doc, which is
// served at openapiPath, the page at docsPath.
func renderDocs(doc []byte, openapiPath, docsPath string) ([]byte, error) {
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("api: the docs page: %w", err)
	}
	info, _ := root["info"].(map[string]any)
	comps, _ := root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	responses, _ := comps["responses"].(map[string]any)
	schemes, _ := comps["securitySchemes"].(map[string]any)
	p := page{
		Title:       jsonString(info["title"]),
		Version:     jsonString(info["version"]),
		Description: jsonString(info["description"]),
		OpenAPIHref: relative(docsPath, openapiPath),
	}
	paths, _ := root["paths"].(map[string]any)
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, pth := range keys {
		item, _ := paths[pth].(map[string]any)
		for _, m := range methodOrder {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			p.Operations = append(p.Operations, pageOperation(m, pth, op, schemas, responses, schemes))
		}
	}
	names := make([]string, 0, len(schemas))
	for k := range schemas {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, n := range names {
		p.Schemas = append(p.Schemas, component{Name: n, Anchor: schemaAnchor(n), described: describe(schemas[n], "", 0)})
	}
	var b bytes.Buffer
	if err := docsPage.Execute(&b, p); err != nil {
		return nil, fmt.Errorf("api: the docs page: %w", err)
	}
	return b.Bytes(), nil
}

// pageOperation returns what the page says of one operation.
func pageOperation(method, pth string, op map[string]any, schemas, responses, schemes map[string]any) operation {
	o := operation{
		Method:  strings.ToUpper(method),
		Path:    pth,
		ID:      jsonString(op["operationId"]),
		Summary: jsonString(op["summary"]),
		Desc:    jsonString(op["description"]),
	}
	o.Deprecated, _ = op["deprecated"].(bool)
	o.Anchor = "op-" + anchorText(o.ID)
	if o.ID == "" {
		o.Anchor = "op-" + anchorText(method+pth)
	}
	for _, t := range list(op["tags"]) {
		o.Tags = append(o.Tags, jsonString(t))
	}
	for _, req := range list(op["security"]) {
		m, _ := req.(map[string]any)
		for _, name := range sortedKeys(m) {
			o.Security = append(o.Security, securityWords(name, schemes[name], list(m[name])))
		}
	}
	for _, pv := range list(op["parameters"]) {
		pm, _ := pv.(map[string]any)
		d := describe(pm["schema"], "", 0)
		if desc := jsonString(pm["description"]); desc != "" && d.Desc != "" {
			d.Desc = desc + " " + d.Desc // the parameter's, then its schema's (a selection's grammar)
		} else if desc != "" {
			d.Desc = desc
		}
		req, _ := pm["required"].(bool)
		o.Params = append(o.Params, row{Name: jsonString(pm["name"]), In: jsonString(pm["in"]), Required: req, described: d})
	}
	if rb, ok := op["requestBody"].(map[string]any); ok {
		var s map[string]any
		o.BodyMedia, s = firstContent(rb)
		o.BodyRequired, _ = rb["required"].(bool)
		if name := componentOf(jsonString(s["$ref"])); name != "" {
			o.BodyLink = name
			s, _ = schemas[name].(map[string]any) // its fields, here
		}
		d := describe(s, "", 0)
		o.Body = &d
	}
	rs, _ := op["responses"].(map[string]any)
	for _, status := range sortedKeys(rs) {
		r, _ := rs[status].(map[string]any)
		if ref := jsonString(r["$ref"]); ref != "" {
			r, _ = responses[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
		}
		resp := response{Status: status, Desc: jsonString(r["description"])}
		hs, _ := r["headers"].(map[string]any)
		for _, name := range sortedKeys(hs) {
			h, _ := hs[name].(map[string]any)
			resp.Headers = append(resp.Headers, header{Name: name, Desc: jsonString(h["description"])})
		}
		var s map[string]any
		resp.Media, s = firstContent(r)
		resp.Stream, resp.Media = streamContent(r, resp.Media)
		if items, ok := s["items"].(map[string]any); ok && resp.Stream {
			s = items // a stream as a JSON array: of its elements
		}
		resp.Link = componentOf(jsonString(s["$ref"]))
		if strings.HasPrefix(status, "4") || strings.HasPrefix(status, "5") {
			o.Problems = append(o.Problems, resp)
		} else {
			o.Responses = append(o.Responses, resp)
		}
	}
	return o
}

// firstContent returns the first media type of a request body's or a
// response's content, and its schema.
func firstContent(v map[string]any) (string, map[string]any) {
	content, _ := v["content"].(map[string]any)
	keys := sortedKeys(content)
	if len(keys) == 0 {
		return "", nil
	}
	mt, _ := content[keys[0]].(map[string]any)
	s, _ := mt["schema"].(map[string]any)
	return keys[0], s
}

// streamContent reports whether a response's body is a stream (its media
// types say "x-stream": true), and the media types to show: all of a
// stream's, else media.
func streamContent(v map[string]any, media string) (bool, string) {
	content, _ := v["content"].(map[string]any)
	keys := sortedKeys(content)
	for _, k := range keys {
		if mt, _ := content[k].(map[string]any); mt["x-stream"] != true {
			return false, media
		}
	}
	return len(keys) > 0, strings.Join(keys, ", ")
}

// securityWords says a security requirement: the scheme's name and what
// it is.
func securityWords(name string, scheme any, scopes []any) string {
	s, _ := scheme.(map[string]any)
	var what string
	switch jsonString(s["type"]) {
	case "http":
		what = "HTTP " + jsonString(s["scheme"])
		if bf := jsonString(s["bearerFormat"]); bf != "" {
			what += " (" + bf + ")"
		}
	case "apiKey":
		what = "an API key in the " + jsonString(s["in"]) + " " + jsonString(s["name"])
	case "mutualTLS":
		what = "a TLS client certificate"
	case "openIdConnect":
		what = "OpenID Connect"
	}
	out := name
	if what != "" {
		out += ": " + what
	}
	if len(scopes) > 0 {
		var l []string
		for _, sc := range scopes {
			l = append(l, jsonString(sc))
		}
		out += ", scopes " + strings.Join(l, ", ")
	}
	if d := jsonString(s["description"]); d != "" {
		out += " — " + d
	}
	return out
}

// relative returns the reference from the page at from to to, both
// absolute paths: "openapi.json" from /docs to /openapi.json, so that the
// page names no host and works behind any prefix.
func relative(from, to string) string {
	dir := path.Dir(from)
	if strings.HasSuffix(from, "/") {
		dir = strings.TrimSuffix(from, "/")
	}
	up := ""
	for dir != "/" && dir != "." && !strings.HasPrefix(to, dir+"/") {
		dir = path.Dir(dir)
		up += "../"
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(to, dir), "/")
	if up == "" && rest == "" {
		return "./"
	}
	if up == "" {
		return "./" + rest
	}
	return up + rest
}

// schemaAnchor is the id of a component's section.
func schemaAnchor(name string) string { return "schema-" + anchorText(name) }

// anchorText returns s with what an id had better not hold written as _.
func anchorText(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
