package entitytest

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/expose-go/expose/entity"
)

// jsonContentType is the Content-Type that entity.Write sends.
const jsonContentType = "application/json; charset=utf-8"

// CheckResponse checks a response recorded from a handler that writes e
// with entity.Write:
//
//   - the status is wantStatus (on a mismatch, the body is printed, each
//     value under a secret field of e replaced by "(secret)", and not
//     checked further);
//   - the Content-Type is application/json; charset=utf-8;
//   - a 2xx body conforms to e, as Conform checks it (a 204 has no body);
//   - a 4xx body is the ValidationError JSON that entity.Write sends,
//     {"error":"validation failed","entity":…,"fields":[{"path":…,
//     "outputPath":…,"rule":…,"message":…},…]}, or, for an error that is
//     not a validation error, {"error":"…"};
//   - a 5xx body is {"error":"…"}.
//
// An error body is checked against the library's error JSON only: a value
// that is not part of it (an undeclared key's, or one of the wrong JSON
// type) is named by its type, never shown; when the body is e's payload
// rather than an error (an object, or a list of them, with a key that e
// declares), it is shown once more, each value under a secret field of e
// replaced by "(secret)".
//
// Messages about an error body start with "error body: ". CheckResponse
// reports every mismatch and returns whether there was none.
func CheckResponse(t testing.TB, rec *httptest.ResponseRecorder, e *entity.Entity, wantStatus int) bool {
	t.Helper()
	msgs := checkResponse(rec, e, wantStatus)
	for _, m := range msgs {
		t.Errorf("%s", m)
	}
	return len(msgs) == 0
}

// maxBodyShown bounds the bytes of a body quoted in a message.
const maxBodyShown = 200

func checkResponse(rec *httptest.ResponseRecorder, e *entity.Entity, wantStatus int) []string {
	if rec == nil {
		return []string{"no response to check (nil *httptest.ResponseRecorder)"}
	}
	res := rec.Result()
	body := rec.Body.Bytes()
	if res.StatusCode != wantStatus {
		return []string{"status: got " + strconv.Itoa(res.StatusCode) + ", want " + strconv.Itoa(wantStatus) + "; " + showBody(e, body)}
	}
	var msgs []string
	if wantStatus == http.StatusNoContent {
		if len(body) > 0 {
			msgs = append(msgs, "body: want none for 204; "+showBody(e, body))
		}
		return msgs
	}
	if ct := res.Header.Get("Content-Type"); ct != jsonContentType {
		msgs = append(msgs, "Content-Type: got "+strconv.Quote(ct)+", want "+strconv.Quote(jsonContentType))
	}
	switch wantStatus / 100 {
	case 2:
		msgs = append(msgs, conform(e, body, config{})...)
	case 4, 5:
		eb := errorBody(body, wantStatus/100 == 4, newSecrets().inEntity(e))
		if len(eb) > 0 {
			if r, ok := asPayload(e, body); ok {
				eb = append(eb, "read as $"+e.Name()+": "+clip(string(r), maxBodyShown))
			}
		}
		msgs = append(msgs, prefix("error body: ", eb)...)
	}
	return msgs
}

func prefix(p string, msgs []string) []string {
	for i, m := range msgs {
		msgs[i] = p + m
	}
	return msgs
}

// errorEntities declares the error bodies that entity.Write sends, so that
// Conform checks them. They are built at first use, not at init.
var errorEntities = sync.OnceValue(func() (e struct{ validation, plain *entity.Entity }) {
	r := entity.NewRegistry()
	e.validation = r.MustExpose("validationError",
		"error", "string", "req | regex '^validation failed$'",
		"entity", "string", "req",
		"fields", "$fieldError", "req",
	)
	r.MustExpose("fieldError",
		"path", "string", "req",
		"outputPath", "string", "req",
		"rule", "string", "req | min 1",
		"message", "string", "req | min 1",
	)
	e.plain = r.MustExpose("error",
		"error", "string", "req | min 1",
	)
	return e
})

// errorBody checks an error response's body: a ValidationError's JSON when
// validation is allowed and the body looks like one, else {"error":"…"}.
// Only the error format's own values are shown (config.errorFormat);
// secretBody says that the response's entity has secret fields, which a
// body that is not JSON may hold.
func errorBody(body []byte, validation, secretBody bool) []string {
	ents := errorEntities()
	cfg := config{errorFormat: true, secretBody: secretBody}
	if !gjson.ValidBytes(body) {
		return conform(ents.plain, body, cfg)
	}
	v := gjson.ParseBytes(body)
	if !validation || !v.IsObject() ||
		!v.Get("entity").Exists() && !v.Get("fields").Exists() && v.Get("error").String() != "validation failed" {
		return conform(ents.plain, body, cfg)
	}
	msgs := conform(ents.validation, body, cfg)
	switch f := v.Get("fields"); {
	case f.IsObject():
		msgs = append(msgs, "fields: want a list of at least 1 field error, got "+typeOf(f))
	case f.IsArray() && len(f.Array()) == 0:
		msgs = append(msgs, "fields: want a list of at least 1 field error, got []")
	}
	return msgs
}

// asPayload returns body redacted with e (as the wrong-status dump shows
// it) when it reads as e's payload: an object, or a list whose first
// object is one, with a key that e declares; false otherwise.
func asPayload(e *entity.Entity, body []byte) ([]byte, bool) {
	if e == nil || !gjson.ValidBytes(body) {
		return nil, false
	}
	v := gjson.ParseBytes(body)
	obj := v
	if v.IsArray() {
		obj = gjson.Result{}
		v.ForEach(func(_, el gjson.Result) bool {
			if el.IsObject() {
				obj = el
				return false
			}
			return true
		})
	}
	if !obj.IsObject() {
		return nil, false
	}
	names := map[string]bool{}
	for _, f := range e.Fields() {
		names[f.Key], names[f.Name] = true, true
	}
	found := false
	obj.ForEach(func(k, _ gjson.Result) bool {
		found = names[k.Str]
		return !found
	})
	if !found {
		return nil, false
	}
	return redact(e, body)
}
