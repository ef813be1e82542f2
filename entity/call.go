package entity

import (
	"errors"
	"maps"
	"net/http"

	"github.com/expose-go/expose/internal/engine"
)

// What a call that failed answers: the engine reports its failures as
// values (engine.FieldError, engine.InputError); here they become the
// package's errors, their messages rendered in the call's language. This
// runs only when a call failed.

// callError returns the error of the call c of e, which failed, in the
// language pref prefers (a Lang option's tag, or a request's
// Accept-Language; "" for English). A ValidationError, and the InputError
// of raw JSON that does not read, are marked with the call's direction,
// the one place that says whose fault it is: a response's is the server's
// data's (statusOf answers it with 500), a request's the client's. (A bad
// option of a response, a Select spec or a Version, stays the client's.)
func (e *Entity) callError(c *engine.Call, pref string) error {
	cat := e.reg.messages()
	lang := msgLang{cat, cat.match(pref)}
	response := c.Dir == engine.Response
	if c.Fatal != nil {
		err := c.Fatal
		var fe *engine.InputError
		if errors.As(err, &fe) && err == error(fe) {
			ie := newInputError(fe.Err, fe.Key, fe.Params)
			if response && (errors.Is(ie, ErrInvalidJSON) || errors.Is(ie, ErrBodyTooLarge)) {
				ie.server, ie.Status = true, http.StatusInternalServerError
			}
			err = ie
		}
		return inLang(err, lang)
	}
	var ve *ValidationError
	var fields []*FieldError
	var block []FieldError
	if n := len(c.Failures); n == 1 { // the common case, in one allocation
		one := new(struct {
			ve     ValidationError
			fields [2]*FieldError // room for the limit's summary
			fe     [1]FieldError
		})
		ve, fields, block = &one.ve, one.fields[:1], one.fe[:]
	} else {
		ve, fields, block = new(ValidationError), make([]*FieldError, n, n+1), make([]FieldError, n)
	}
	for i := range c.Failures {
		fields[i] = &block[i]
		fieldErrorOf(&block[i], &c.Failures[i], cat, lang.li)
	}
	if c.Omitted > 0 {
		// The summary of the errors past the limit: at the top, since the
		// walk is over.
		params := map[string]any{"omitted": int64(c.Omitted)}
		m, l := cat.lookup(lang.li, []string{"limit"})
		fields = append(fields, &FieldError{Rule: "limit", Code: "limit", Params: params, Message: cat.render(m, l, "limit", "", params)})
	}
	*ve = ValidationError{Entity: e.Name(), Fields: fields, Omitted: c.Omitted, response: response, lang: lang}
	return ve
}

// fieldErrorOf sets fe to the FieldError of a failure the engine found,
// its message rendered in language li of cat.
func fieldErrorOf(fe *FieldError, f *engine.FieldError, cat *catalogs, li int) {
	*fe = FieldError{Path: f.Path, OutputPath: f.OutputPath, Pointer: f.Pointer, In: f.In,
		Rule: f.Rule, Code: f.Code, Params: f.Params, cause: f.Cause}
	if p, ok := f.Cause.(*engine.RulePanic); ok {
		fe.cause = panicOf(p)
	}
	fe.Message = cat.fieldMessage(f, li)
}

// fieldMessage renders a failure's message: the field's own (msg), else
// the catalog's for language li, else (for a rule no catalog names) the
// rule's error text. For a rule that panicked it is the catalog's "is not
// valid", and under a secret too, but for the built-in messages that
// quote no value (engine.QuotesNoValue).
func (c *catalogs) fieldMessage(f *engine.FieldError, li int) string {
	params := f.Params
	if f.Msg != nil { // one text for every language: params as they are
		if len(f.MsgParams) > 0 { // a placeholder of another rule than the failing one still says its value
			all := make(map[string]any, len(f.MsgParams)+len(params))
			for _, p := range f.MsgParams {
				all[p.Name] = p.Value
			}
			maps.Copy(all, params)
			params = all
		}
		return c.render(f.Msg, li, "", f.Field, params)
	}
	var arr [3]string // the keys to look up, on the stack
	keys := arr[:0]
	code := f.Code
	switch {
	case f.Panicked || f.Secret && !engine.QuotesNoValue(code):
		keys = append(keys, keyInvalid)
	case f.Kind != "" && f.Exact:
		keys = append(keys, code+"."+f.Kind+".exact", code+"."+f.Kind, code)
	case f.Kind != "":
		keys = append(keys, code+"."+f.Kind, code)
	default:
		keys = append(keys, code)
	}
	if m, l := c.lookup(li, keys); m != nil {
		return c.render(m, l, code, f.Field, params)
	}
	if f.Err == nil {
		return "is not valid"
	}
	return f.Err.Error()
}
