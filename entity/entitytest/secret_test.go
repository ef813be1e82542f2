package entitytest

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// secretWord is in every secret value of the tests below: no message may
// hold it.
const secretWord = "hunter2"

// secretRegistry declares a holder whose card, a $ref, is secret, and a
// pin and a note that are secret value fields.
func secretRegistry(t *testing.T) *entity.Registry {
	t.Helper()
	r := entity.NewRegistry()
	r.MustExpose("card",
		"number", "string", "req | min 16 | regex '^[0-9]+$'",
		"cvc", "number", "req | range 100 999",
		"owner", "$owner", "",
	)
	r.MustExpose("owner",
		"name", "string", "req | min 3",
	)
	r.MustExpose("holder",
		"name", "string", "req",
		"card", "$card", "secret",
		"cards", "$card", "secret",
		"pin", "string", "secret | min 8",
		"note", "object", "secret",
	)
	return r
}

var secretConformTests = []struct {
	name    string
	payload string
	want    []string
}{
	{"card number fails its rules",
		`{"name":"a","card":{"number":"S3CRET-hunter2","cvc":123,"owner":null},"cards":null,"pin":null,"note":null}`,
		[]string{
			`card.number: want string matching min 16 | regex '^[0-9]+$', got a string (secret): is not valid (min)`,
			`card.number: want string matching min 16 | regex '^[0-9]+$', got a string (secret): is not valid (regex)`,
		}},
	{"card number of the wrong type",
		`{"name":"a","card":{"number":["hunter2"],"cvc":"hunter2","owner":null},"cards":null,"pin":null,"note":null}`,
		[]string{
			`card.number: want string matching min 16 | regex '^[0-9]+$', got a array (secret)`,
			`card.cvc: want number matching range 100 999, got a string (secret)`,
		}},
	{"undeclared key under the card",
		`{"name":"a","card":{"number":"1234567812345678","cvc":123,"owner":null,"pan":"hunter2"},"cards":null,"pin":null,"note":null}`,
		[]string{`card.pan: undeclared key, got a string (secret)`}},
	{"a ref two levels under the secret",
		`{"name":"a","card":{"number":"1234567812345678","cvc":123,"owner":{"name":"hunter2!","x":"hunter2"}},"cards":null,"pin":null,"note":null}`,
		[]string{`card.owner.x: undeclared key, got a string (secret)`}},
	{"owner name fails min",
		`{"name":"a","card":{"number":"1234567812345678","cvc":123,"owner":{"name":"h2"}},"cards":null,"pin":null,"note":null}`,
		[]string{`card.owner.name: want string matching min 3, got a string (secret): is not valid (min)`}},
	{"the card is not an object",
		`{"name":"a","card":"hunter2","cards":null,"pin":null,"note":null}`,
		[]string{`card: want object or list ($card), got a string (secret)`}},
	{"an element of a secret list",
		`{"name":"a","card":null,"cards":["hunter2",{"number":"hunter2","cvc":1,"owner":null}],"pin":null,"note":null}`,
		[]string{
			`cards[0]: want object ($card), got a string (secret)`,
			`cards[1].number: want string matching min 16 | regex '^[0-9]+$', got a string (secret): is not valid (min)`,
			`cards[1].number: want string matching min 16 | regex '^[0-9]+$', got a string (secret): is not valid (regex)`,
			`cards[1].cvc: want number matching range 100 999, got a number (secret): is not valid (range)`,
		}},
	{"a secret value field fails its rule",
		`{"name":"a","card":null,"cards":null,"pin":"hunter2","note":{"k":"hunter2"}}`,
		[]string{`pin: want string matching min 8, got a string (secret): is not valid (min)`}},
	{"a secret value field of the wrong type",
		`{"name":"a","card":null,"cards":null,"pin":["hunter2"],"note":["hunter2"]}`,
		[]string{
			`pin: want string matching min 8, got a array (secret)`,
			`note: want object, got a array (secret)`,
		}},
	{"the non-secret field still shows its value",
		`{"name":1,"card":null,"cards":null,"pin":null,"note":null}`,
		[]string{`name: want string, got 1`}},
}

// TestConformSecret checks that Conform prints no value under a secret
// field: the field's own, its children's, a list's elements, undeclared
// keys.
func TestConformSecret(t *testing.T) {
	holder := secretRegistry(t).Lookup("holder")
	for _, tt := range secretConformTests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Conform(tb, holder, []byte(tt.payload))
			checkReport(t, tb, ok, tt.want)
			for _, m := range tb.errors {
				if strings.Contains(m, secretWord) {
					t.Errorf("a message shows a secret value: %q", m)
				}
			}
		})
	}
}

var secretResponseTests = []struct {
	name   string
	status int
	ct     string
	body   string
	want   []string
}{
	{"wrong status shows the body without its secrets", 200, jsonCT,
		`{"name":"a","card":{"number":"hunter2","cvc":1,"owner":{"name":"hunter2"}},"cards":[{"number":"hunter2"}],"pin":"hunter2","note":{"a":"hunter2"}}`,
		[]string{`status: got 200, want 400; body: {"name":"a","card":"(secret)","cards":"(secret)","pin":"(secret)","note":"(secret)"}`}},
	{"wrong status, a list of holders", 200, jsonCT,
		`[{"name":"a","pin":"hunter2"},{"name":"b","card":{"number":"hunter2"},"x":1}]`,
		[]string{`status: got 200, want 400; body: [{"name":"a","pin":"(secret)"},{"name":"b","card":"(secret)","x":1}]`}},
	{"wrong status, a body that is not JSON", 200, jsonCT,
		`{"name":"a","pin":"hunter2"`,
		[]string{`status: got 200, want 400; body: 27 bytes, not shown: not JSON, and $holder has secret fields`}},
}

// TestCheckResponseSecret checks that CheckResponse shows a body whose
// status is wrong without the values of its secret fields.
func TestCheckResponseSecret(t *testing.T) {
	holder := secretRegistry(t).Lookup("holder")
	for _, tt := range secretResponseTests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeRaw(tt.status, tt.ct, tt.body)(rec, httptest.NewRequest("GET", "/", nil))
			tb := &fakeTB{}
			ok := CheckResponse(tb, rec, holder, 400)
			checkReport(t, tb, ok, tt.want)
			for _, m := range tb.errors {
				if strings.Contains(m, secretWord) {
					t.Errorf("a message shows a secret value: %q", m)
				}
			}
		})
	}
}

// TestCheckResponseSecretMade checks the same on a body entity.Write made,
// and a 2xx body that fails Conform under a secret ref.
func TestCheckResponseSecretMade(t *testing.T) {
	holder := secretRegistry(t).Lookup("holder")
	in := map[string]any{"name": "a", "pin": "hunter2-pin",
		"card": map[string]any{"number": "1234567890123456", "cvc": 123}}
	rec := httptest.NewRecorder()
	holder.Write(rec, in)
	tb := &fakeTB{}
	ok := CheckResponse(tb, rec, holder, 201)
	checkReport(t, tb, ok, []string{
		`status: got 200, want 201; body: {"name":"a","card":"(secret)","cards":"(secret)","pin":"(secret)","note":"(secret)"}`,
	})
	for _, m := range tb.errors {
		if strings.Contains(m, secretWord) {
			t.Errorf("a message shows a secret value: %q", m)
		}
	}
}
