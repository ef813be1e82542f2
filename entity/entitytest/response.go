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

// jsonContentType is the Content-Type that entity.Write sends on success.
const jsonContentType = "application/json; charset=utf-8"

// problemContentType is the Content-Type of entity.Write's error bodies.
const problemContentType = "application/problem+json"

// CheckResponse checks a response recorded from a handler that writes e
// with entity.Write:
//
//   - the status is wantStatus (on a mismatch, the body is printed, each
//     value under a secret field of e replaced by "(secret)", and not
//     checked further);
//   - the Content-Type is application/json; charset=utf-8 for a 2xx,
//     application/problem+json for a 4xx or 5xx;
//   - a 2xx body conforms to e, as Conform checks it (a 204 has no body);
//   - a 4xx or 5xx body is the RFC 9457 problem details that
//     entity.WriteError sends: "type", "title", "status" (the response's)
//     and "detail", strings but status; for a 4xx, "errors" (a validation
//     failure: a list of at least one {"pointer", "path", "outputPath",
//     "code", "params" (an object, optional), "message"}) and "omitted",
//     "offset" (numbers) or "accept" (a list) where they apply; a 5xx body
//     has none of these, and may have an "instance" (a string: the id the
//     registry's log hook got the error under).
//
// An error body is checked against the library's error JSON only: a value
// that is not part of it (an undeclared key's, or one of the wrong JSON
// type) is named by its type, never shown; when the body is e's payload
// rather than an error (an object, or a list of them, with a key that e
// declares), it is shown once more, each value that may be secret replaced
// by "(secret)" (as Conform decides it: a key any field of the object
// declares secret or writeonly, in any view).
//
// Messages about an error body start with "error body: ". CheckResponse
// reports every mismatch and returns whether there was none. Its options
// are Conform's, for a success body: Call for a response made with flags
// or a version, Partial for one made with a selection, IgnoreOrder; given
// Request it reports a mistake, since it checks responses.
func CheckResponse(t testing.TB, rec *httptest.ResponseRecorder, e *entity.Entity, wantStatus int, opts ...Option) bool {
	t.Helper()
	cfg := configOf(opts)
	if cfg.input {
		t.Errorf("entitytest: CheckResponse: Request is for Sample and CheckStruct: CheckResponse checks what a response writes")
		return false
	}
	if msg := callError(e, cfg.call); msg != "" {
		t.Errorf("%s", msg)
		return false
	}
	msgs := checkResponse(rec, e, wantStatus, cfg)
	for _, m := range msgs {
		t.Errorf("%s", m)
	}
	return len(msgs) == 0
}

// maxBodyShown bounds the bytes of a body quoted in a message.
const maxBodyShown = 200

func checkResponse(rec *httptest.ResponseRecorder, e *entity.Entity, wantStatus int, cfg config) []string {
	if rec == nil {
		return []string{"no response to check (nil *httptest.ResponseRecorder)"}
	}
	res := rec.Result()
	body := rec.Body.Bytes()
	v := newView(cfg.call)
	if res.StatusCode != wantStatus {
		return []string{"status: got " + strconv.Itoa(res.StatusCode) + ", want " + strconv.Itoa(wantStatus) + "; " + showBody(e, body, v)}
	}
	var msgs []string
	if wantStatus == http.StatusNoContent {
		if len(body) > 0 {
			msgs = append(msgs, "body: want none for 204; "+showBody(e, body, v))
		}
		return msgs
	}
	wantCT := jsonContentType
	if wantStatus >= 400 {
		wantCT = problemContentType
	}
	if ct := res.Header.Get("Content-Type"); ct != wantCT {
		msgs = append(msgs, "Content-Type: got "+strconv.Quote(ct)+", want "+strconv.Quote(wantCT))
	}
	switch wantStatus / 100 {
	case 2:
		msgs = append(msgs, conform(e, body, cfg)...)
	case 4, 5:
		eb := errorBody(body, wantStatus, v.entityHolds(e))
		if len(eb) > 0 {
			if r, ok := asPayload(e, body, v); ok {
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

// errorEntities declares the problem details that entity.Write sends, so
// that Conform checks them: a client error's and a server error's, which
// has no extension member. They are built at first use, not at init.
var errorEntities = sync.OnceValue(func() (e struct{ client, server *entity.Entity }) {
	r := entity.NewRegistry()
	members := []string{
		"type", "string", "req | min 1",
		"title", "string", "req | min 1",
		"status", "number", "req | range 100 599",
		"detail", "string", "req | min 1",
	}
	e.client = r.MustExpose("problem", append(members,
		"errors", "$fieldError", "",
		"omitted", "number", "min 1",
		"offset", "number", "min 0",
		"accept", "list", "min 1",
	)...)
	r.MustExpose("fieldError",
		"pointer", "string", "omitnil",
		"parameter", "string", "omitnil",
		"in", "string", "omitnil | in path query header cookie",
		"path", "string", "req",
		"outputPath", "string", "req",
		"code", "string", "req | min 1",
		"params", "object", "",
		"message", "string", "req | min 1",
	)
	e.server = r.MustExpose("serverProblem", append(members, "instance", "string", "min 1")...)
	return e
})

// problemMembers are the members of the problem details entity.Write
// sends: a body's key among them does not make it read as a payload.
var problemMembers = map[string]bool{"type": true, "title": true, "status": true, "detail": true,
	"errors": true, "omitted": true, "offset": true, "accept": true, "instance": true}

// problemExtensions are the members of problem details that only some
// problems have.
var problemExtensions = map[string]bool{"errors": true, "omitted": true, "offset": true, "accept": true, "params": true, "instance": true}

// errorBody checks an error response's body, of status, against the
// problem details entity.WriteError writes: a client error's may have
// the extension members, a server error's not. Only the error format's
// own values are shown (config.errorFormat); secretBody says that the
// response's entity has secret fields, which a body that is not JSON may
// hold.
func errorBody(body []byte, status int, secretBody bool) []string {
	ents := errorEntities()
	cfg := config{errorFormat: true, secretBody: secretBody, optional: problemExtensions}
	ent := ents.client
	if status >= 500 {
		ent = ents.server
	}
	msgs := conform(ent, body, cfg)
	if !gjson.ValidBytes(body) {
		return msgs
	}
	v := gjson.ParseBytes(body)
	if !v.IsObject() {
		return msgs
	}
	if s := v.Get("status"); s.Type == gjson.Number && s.Int() != int64(status) {
		msgs = append(msgs, "status: "+s.Raw+" is not the response's "+strconv.Itoa(status))
	}
	if status >= 500 {
		return msgs // its extension members are undeclared keys
	}
	switch f := v.Get("errors"); {
	case f.IsArray() && len(f.Array()) == 0:
		msgs = append(msgs, "errors: want a list of at least 1 field error, got []")
	case f.IsObject():
		msgs = append(msgs, "errors: want a list of at least 1 field error, got "+typeOf(f))
	}
	return msgs
}

// asPayload returns body redacted with e (as the wrong-status dump shows
// it) when it reads as e's payload: an object, or a list whose first
// object is one, with a key that e declares; false otherwise.
func asPayload(e *entity.Entity, body []byte, vw *view) ([]byte, bool) {
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
	lv := vw.entity(e)
	names := map[string]bool{}
	for _, f := range lv.fields {
		names[f.Key], names[f.Name] = true, true
	}
	found := false
	obj.ForEach(func(k, _ gjson.Result) bool {
		found = (names[k.Str] || lv.holdsAt(k.Str)) && !problemMembers[k.Str]
		return !found
	})
	if !found {
		return nil, false
	}
	return redact(e, body, vw)
}
