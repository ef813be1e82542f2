package entity_test

// Running one case through the library and through the reference model,
// and comparing what they give.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
)

// mdlCase is one case: a registry's declarations and one call.
type mdlCase struct {
	keyCase entity.KeyCaseStyle
	flags   []string
	decls   []mdlDecl
	entity  string
	input   any // the input both are given (a response call)
	// request builds the request of a request call, afresh for each side;
	// parts are what a generated one is built from.
	request func() *http.Request
	parts   *mdlReqParts
	// mode is the call: "" a response (MakeJSON), "request" (MakeRequest,
	// then Bind), "patch" (Patch of current).
	mode    string
	current any
	// paths are the request's path values, read through the registry's
	// PathValues option when usePathValues is set (else the request holds
	// them: http.Request.SetPathValue).
	paths         map[string]string
	usePathValues bool
	// bodyLimit is the registry's Limits.BodyBytes, 0 for the default;
	// jsonTypes, whether it is made with JSONTypes.
	bodyLimit int64
	jsonTypes bool
	opts      mdlOpts
	// prov says how each *entity.Object in the input was made.
	prov map[*entity.Object]mdlProv
	// desc describes the input for reports (an Object's JSON, a request).
	desc string
}

// build exposes the case's declarations in a new registry: nil when the
// library refuses them (the model interprets accepted declarations only).
func (cs *mdlCase) build() (*entity.Registry, error) {
	reg := entity.NewRegistry(entity.KeyCase(cs.keyCase))
	if cs.usePathValues {
		if err := reg.Configure(entity.PathValues(cs.pathValue)); err != nil {
			return nil, err
		}
	}
	if cs.bodyLimit > 0 {
		if err := reg.Configure(entity.Limits{BodyBytes: cs.bodyLimit}); err != nil {
			return nil, err
		}
	}
	if cs.jsonTypes {
		if err := reg.Configure(entity.JSONTypes()); err != nil {
			return nil, err
		}
	}
	if len(cs.flags) > 0 {
		if err := reg.DeclareFlags(cs.flags...); err != nil {
			return nil, err
		}
	}
	for _, d := range cs.decls {
		if _, err := reg.Expose(d.name, d.triples...); err != nil {
			return nil, err
		}
	}
	if err := reg.Verify(); err != nil {
		return nil, err
	}
	return reg, nil
}

// pathValue reads a path parameter as a router other than ServeMux would.
func (cs *mdlCase) pathValue(_ *http.Request, name string) string { return cs.paths[name] }

// options gives the library's options for the case's call.
func (o mdlOpts) options() []entity.Option {
	var out []entity.Option
	if o.hasWith {
		out = append(out, entity.With(o.with...))
	}
	if o.hasCtx {
		out = append(out, entity.WithContext(entity.NewContext(context.Background(), o.ctxFlags...)))
	}
	if o.version != "" {
		out = append(out, entity.Version(o.version))
	}
	if o.hasSel {
		out = append(out, entity.Select(o.sel))
	}
	if o.hasOnly {
		out = append(out, entity.Only(o.only...))
	}
	if o.hasExcept {
		out = append(out, entity.Except(o.except...))
	}
	if o.strict {
		out = append(out, entity.Strict())
	}
	if o.lax {
		out = append(out, entity.Lax())
	}
	if o.deny {
		out = append(out, entity.DenyUnknown())
	}
	if o.lang != "" {
		out = append(out, entity.Lang(o.lang))
	}
	return out
}

func (o mdlOpts) String() string {
	var parts []string
	if o.request {
		parts = append(parts, "MakeRequest")
	}
	if o.hasWith {
		parts = append(parts, fmt.Sprintf("With(%q)", o.with))
	}
	if o.hasCtx {
		parts = append(parts, fmt.Sprintf("WithContext(%q)", o.ctxFlags))
	}
	if o.version != "" {
		parts = append(parts, fmt.Sprintf("Version(%q)", o.version))
	}
	if o.hasSel {
		parts = append(parts, fmt.Sprintf("Select(%q)", o.sel))
	}
	if o.hasOnly {
		parts = append(parts, fmt.Sprintf("Only(%q)", o.only))
	}
	if o.hasExcept {
		parts = append(parts, fmt.Sprintf("Except(%q)", o.except))
	}
	if o.strict {
		parts = append(parts, "Strict()")
	}
	if o.lax {
		parts = append(parts, "Lax()")
	}
	if o.deny {
		parts = append(parts, "DenyUnknown()")
	}
	if o.lang != "" {
		parts = append(parts, fmt.Sprintf("Lang(%q)", o.lang))
	}
	return strings.Join(parts, ", ")
}

// walker runs the case's call through the library. skip reports an outcome
// the model does not predict (the error limit, the depth limit).
func (cs *mdlCase) walker(reg *entity.Registry) (out mdlOutcome, skip bool) {
	var b []byte
	var err error
	if cs.opts.request {
		var obj *entity.Object
		obj, err = reg.Lookup(cs.entity).MakeRequest(cs.request(), cs.opts.options()...)
		if err == nil {
			b = []byte(obj.String())
		}
	} else {
		b, err = reg.Lookup(cs.entity).MakeJSON(cs.input, cs.opts.options()...)
	}
	if err == nil {
		return mdlOutcome{json: b}, false
	}
	return mdlLibError(err, false)
}

// mdlLibError reads the library's error as an outcome. skip reports one
// the model does not predict (the error limit, the depth and output
// limits). For a patch, a field error of the server's (its current value
// fails) is the failure "server".
func mdlLibError(err error, patch bool) (out mdlOutcome, skip bool) {
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		if ve.Omitted > 0 {
			return out, true
		}
		if patch && ve.StatusCode() == 500 {
			out.fail = "server"
			return out, false
		}
		for _, f := range ve.Fields {
			if f.Code == "depth" || f.Code == "limit" {
				return out, true
			}
			out.errs = append(out.errs, mdlErr{path: f.Path, outPath: f.OutputPath, code: f.Code, msg: f.Message,
				in: f.In, pointer: f.Pointer, params: f.Params})
		}
		return out, false
	}
	switch {
	case errors.Is(err, entity.ErrBodyTooLarge):
		out.fail = "tooLarge"
	case errors.Is(err, entity.ErrTooLarge), errors.Is(err, entity.ErrDepth):
		return out, true
	case errors.Is(err, entity.ErrInvalidFields):
		out.fail = "fields"
	case errors.Is(err, entity.ErrInvalidVersion):
		out.fail = "version"
	case errors.Is(err, entity.ErrUnknownField):
		out.fail = "unknownField"
	case errors.Is(err, entity.ErrUnknownFlag):
		out.fail = "unknownFlag"
	case errors.Is(err, entity.ErrUnsupportedInput):
		out.fail = "unsupported"
	case errors.Is(err, entity.ErrInvalidJSON):
		out.fail = "invalidJSON"
	case errors.Is(err, entity.ErrMethod):
		out.fail = "method"
	case errors.Is(err, entity.ErrUnsupportedMediaType):
		out.fail = "media"
	default:
		var ie *entity.InputError
		if errors.As(err, &ie) {
			out.fail = fmt.Sprintf("status %d", ie.StatusCode())
			break
		}
		out.fail = "other: " + err.Error()
	}
	return out, false
}

// model runs the case's call through the reference model.
func (cs *mdlCase) model() (mdlOutcome, error) {
	m, err := cs.modelReg()
	if err != nil {
		return mdlOutcome{}, err
	}
	o := cs.opts
	switch cs.mode {
	case "patch":
		o.request = true
		return m.patch(cs.entity, cs.request(), cs.current, o), nil
	case "request":
		o.request = true
		return m.run(cs.entity, cs.request(), o, nil), nil
	}
	return m.run(cs.entity, cs.input, cs.opts, cs.prov), nil
}

// modelReg reads the case's declarations into the model's registry.
func (cs *mdlCase) modelReg() (*mdlReg, error) {
	m, err := mdlNewReg(cs.keyCase, cs.flags, cs.decls)
	if err != nil {
		return nil, err
	}
	if cs.usePathValues {
		m.pathValues = cs.pathValue
	}
	m.bodyLimit, m.jsonTypes = cs.bodyLimit, cs.jsonTypes
	m.work = new(int)
	return m, nil
}

// String prints an outcome for a report.
func (o mdlOutcome) String() string {
	switch {
	case o.fail != "":
		return "fails: " + o.fail
	case o.errs != nil:
		var b strings.Builder
		b.WriteString("field errors:")
		for _, k := range mdlErrKeys(o.errs) {
			b.WriteString(" " + k)
		}
		return b.String()
	}
	return string(o.json)
}

// mdlErrKeys gives the errors as sorted "path:code" strings.
func mdlErrKeys(errs []mdlErr) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = e.path + ":" + e.code
	}
	sort.Strings(out)
	return out
}

// mdlDiff compares the library's outcome with the model's: "" when they
// agree.
func mdlDiff(got, want mdlOutcome) string {
	if got.fail != want.fail {
		return fmt.Sprintf("library %s, model %s", got, want)
	}
	if (got.errs != nil) != (want.errs != nil) {
		return fmt.Sprintf("library %s, model %s", got, want)
	}
	if want.errs != nil {
		g, w := mdlErrKeys(got.errs), mdlErrKeys(want.errs)
		if strings.Join(g, " ") != strings.Join(w, " ") {
			return fmt.Sprintf("library %s, model %s", got, want)
		}
		for _, we := range want.errs {
			if !we.checkMsg {
				continue
			}
			found := false
			for _, ge := range got.errs {
				if ge.path == we.path && ge.code == we.code && ge.msg == we.msg {
					found = true
				}
			}
			if !found {
				var msgs []string
				for _, ge := range got.errs {
					if ge.path == we.path && ge.code == we.code {
						msgs = append(msgs, fmt.Sprintf("%q", ge.msg))
					}
				}
				return fmt.Sprintf("message of %s:%s: library %s, model %q", we.path, we.code, strings.Join(msgs, " "), we.msg)
			}
		}
		return ""
	}
	if !bytes.Equal(got.json, want.json) {
		return fmt.Sprintf("library %s\n        model   %s", got.json, want.json)
	}
	return ""
}

// report describes a case for a failure message.
func (cs *mdlCase) report() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registry: KeyCase(%v), flags %q\n", cs.keyCase, cs.flags)
	for _, d := range cs.decls {
		fmt.Fprintf(&b, "  %q: %q\n", d.name, d.triples)
	}
	if cs.usePathValues {
		fmt.Fprintf(&b, "  PathValues: %q\n", cs.paths)
	}
	if cs.bodyLimit > 0 {
		fmt.Fprintf(&b, "  Limits{BodyBytes: %d}\n", cs.bodyLimit)
	}
	if cs.jsonTypes {
		b.WriteString("  JSONTypes()\n")
	}
	call := "call"
	switch cs.mode {
	case "request":
		call = "MakeRequest (then Bind) of"
	case "patch":
		call = "Patch of"
	}
	fmt.Fprintf(&b, "%s %q with %s\n", call, cs.entity, cs.opts)
	switch {
	case cs.mode == "patch":
		if raw, ok := cs.current.([]byte); ok {
			fmt.Fprintf(&b, "current: raw JSON %s\n", raw)
		} else {
			fmt.Fprintf(&b, "current: %s\n", mdlShow(cs.current, nil))
		}
		fmt.Fprintf(&b, "request: %s\n", cs.desc)
	case cs.opts.request:
		fmt.Fprintf(&b, "request: %s\n", cs.desc)
	default:
		if raw, ok := cs.input.([]byte); ok {
			fmt.Fprintf(&b, "input: raw JSON %s\n", raw)
		} else {
			fmt.Fprintf(&b, "input: %s\n", mdlShow(cs.input, cs.prov))
		}
	}
	return b.String()
}

// mdlShow prints an input for a report: Go values as they are, pointers
// followed, Objects as their JSON and how they were made.
func mdlShow(v any, prov map[*entity.Object]mdlProv) string {
	var b strings.Builder
	mdlShowTo(&b, reflect.ValueOf(v), prov, 0)
	return b.String()
}

func mdlShowTo(b *strings.Builder, v reflect.Value, prov map[*entity.Object]mdlProv, depth int) {
	if depth > 20 {
		b.WriteString("…")
		return
	}
	if !v.IsValid() {
		b.WriteString("nil")
		return
	}
	if v.CanInterface() {
		switch x := v.Interface().(type) {
		case *entity.Object:
			if x == nil {
				b.WriteString("(*entity.Object)(nil)")
				return
			}
			p := prov[x]
			how := "Make"
			switch {
			case p.request:
				how = "MakeRequest"
			case p.shaped:
				how = "Make with shaping options"
			}
			fmt.Fprintf(b, "Object(%s of %q: %s)", how, p.entity, x.String())
			return
		case time.Time:
			fmt.Fprintf(b, "time(%s)", x.Format(time.RFC3339Nano))
			return
		case json.Number:
			fmt.Fprintf(b, "json.Number(%q)", string(x))
			return
		case []byte:
			if x == nil {
				b.WriteString("[]byte(nil)")
			} else {
				fmt.Fprintf(b, "[]byte(%q)", x)
			}
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			fmt.Fprintf(b, "(%s)(nil)", v.Type())
			return
		}
		b.WriteByte('&')
		mdlShowTo(b, v.Elem(), prov, depth+1)
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		mdlShowTo(b, v.Elem(), prov, depth+1)
	case reflect.Map:
		if v.IsNil() {
			fmt.Fprintf(b, "%s(nil)", v.Type())
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		fmt.Fprintf(b, "%s{", v.Type())
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(b, "%q: ", k.String())
			mdlShowTo(b, v.MapIndex(k), prov, depth+1)
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			fmt.Fprintf(b, "%s(nil)", v.Type())
			return
		}
		fmt.Fprintf(b, "%s{", v.Type())
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			mdlShowTo(b, v.Index(i), prov, depth+1)
		}
		b.WriteByte('}')
	case reflect.Struct:
		b.WriteString("struct{")
		for i := 0; i < v.NumField(); i++ {
			if i > 0 {
				b.WriteString("; ")
			}
			f := v.Type().Field(i)
			name := f.Name
			if f.Anonymous {
				name = "(embedded)"
			}
			fmt.Fprintf(b, "%s %s: ", name, f.Tag)
			mdlShowTo(b, v.Field(i), prov, depth+1)
		}
		b.WriteByte('}')
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		if v.CanInterface() {
			fmt.Fprintf(b, "%T(%v)", v.Interface(), v.Interface())
		} else {
			fmt.Fprintf(b, "%v", v)
		}
	}
}
