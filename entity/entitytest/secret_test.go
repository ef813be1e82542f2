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
			`card.number: want string matching min 16 | regex '^[0-9]+$', got an array (secret)`,
			`card.cvc: want number matching range 100 999, got a string (secret)`,
		}},
	{"undeclared key under the card",
		`{"name":"a","card":{"number":"1234567812345678","cvc":123,"owner":null,"pan":"hunter2"},"cards":null,"pin":null,"note":null}`,
		[]string{`card: an undeclared key (secret)`}},
	{"a ref two levels under the secret",
		`{"name":"a","card":{"number":"1234567812345678","cvc":123,"owner":{"name":"hunter2!","x":"hunter2"}},"cards":null,"pin":null,"note":null}`,
		[]string{`card.owner: an undeclared key (secret)`}},
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
			`pin: want string matching min 8, got an array (secret)`,
			`note: want object, got an array (secret)`,
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

// leak is the secret value of the hostile probes below: no message may
// hold it.
const leak = "S3CRET"

// leakRegistry declares a payment whose secrets sit where a walk that only
// descends into objects misses them: a group holding a secret, a secret
// $ref with a group inside, a list of a $ref that holds a secret two $refs
// down (through a $ref to itself), and a secret field renamed.
func leakRegistry(t *testing.T) *entity.Registry {
	t.Helper()
	r := entity.NewRegistry()
	r.MustExpose("card",
		"number", "string", "req | regex '^[0-9]{16}$'",
		"meta", "{", "",
		"tag", "string", "",
		"meta", "}", "",
		"cvv", "number", "",
	)
	r.MustExpose("wallet",
		"label", "string", "",
		"key", "$keyring", "",
	)
	r.MustExpose("keyring",
		"id", "number", "",
		"code", "string", "secret",
		"next", "$keyring", "",
	)
	r.MustExpose("pay",
		"id", "number", "req",
		"pin", "string", "secret | min 4",
		"card", "$card", "secret",
		"g", "{", "",
		"tok", "string", "secret",
		"g", "}", "",
		"wallets", "$wallet", "",
		"renamed", "string", "secret | rename 'rn'",
	)
	return r
}

// payWith returns a payment that conforms to $pay, with the members given
// in place of its own: payWith(`"pin":"x"`) replaces the pin.
func payWith(members ...string) string {
	base := [][2]string{
		{"id", `1`}, {"pin", `"abcd"`}, {"card", `null`}, {"g", `{"tok":null}`},
		{"wallets", `null`}, {"rn", `null`},
	}
	var out []string
	used := make([]bool, len(members))
	for _, kv := range base {
		v := kv[1]
		for i, m := range members {
			if strings.HasPrefix(m, `"`+kv[0]+`":`) {
				v, used[i] = strings.TrimPrefix(m, `"`+kv[0]+`":`), true
			}
		}
		out = append(out, `"`+kv[0]+`":`+v)
	}
	for i, m := range members {
		if !used[i] {
			out = append(out, m)
		}
	}
	return "{" + strings.Join(out, ",") + "}"
}

var leakConformTests = []struct {
	name    string
	payload string
	want    []string
}{
	{"the payload conforms", payWith(), nil},
	{"a group given a list", payWith(`"g":[{"tok":"S3CRET"}]`),
		[]string{`g: want object (group), got an array (secret)`}},
	{"a group given a string", payWith(`"g":"S3CRET"`),
		[]string{`g: want object (group), got a string (secret)`}},
	{"a secret in a group", payWith(`"g":{"tok":["S3CRET"]}`),
		[]string{`g.tok: want string, got an array (secret)`}},
	{"an undeclared key named by a secret under a secret ref",
		payWith(`"card":{"number":"1234567812345678","meta":{"tag":null},"cvv":1,"S3CRET":1}`),
		[]string{`card: an undeclared key (secret)`}},
	{"a duplicate undeclared key under a secret ref",
		payWith(`"card":{"number":"1234567812345678","S3CRET":1,"meta":{"tag":null},"cvv":1,"S3CRET":2}`),
		[]string{`card: a duplicate undeclared key (secret)`, `card: an undeclared key (secret)`}},
	{"a duplicate declared key under a secret ref",
		payWith(`"card":{"number":"1234567812345678","number":"S3CRET","meta":{"tag":null},"cvv":1}`),
		[]string{`card.number: duplicate key`}},
	{"a group inside a secret ref given a list",
		payWith(`"card":{"number":"1234567812345678","meta":["S3CRET"],"cvv":1}`),
		[]string{`card.meta: want object (group), got an array (secret)`}},
	{"a group inside a secret ref with bad and undeclared keys",
		payWith(`"card":{"number":"1234567812345678","meta":{"tag":5,"S3CRET":"S3CRET"},"cvv":1}`),
		[]string{`card.meta.tag: want string, got a number (secret)`, `card.meta: an undeclared key (secret)`}},
	{"keys out of order under a secret ref name only declared keys",
		payWith(`"card":{"cvv":1,"S3CRET":1,"number":"1234567812345678","meta":{"tag":null}}`),
		[]string{`card: keys out of order: got [cvv number meta], want [number meta cvv]`, `card: an undeclared key (secret)`}},
	{"a secret ref given a list with a string",
		payWith(`"card":[{"number":"S3CRET","meta":{"tag":null},"cvv":1},"S3CRET"]`),
		[]string{
			`card[0].number: want string matching regex '^[0-9]{16}$', got a string (secret): is not valid (regex)`,
			`card[1]: want object ($card), got a string (secret)`,
		}},
	{"a secret ref given a list of lists", payWith(`"card":[["S3CRET"]]`),
		[]string{`card[0]: want object ($card), got an array (secret)`}},
	{"a list of refs holding a secret, given a string", payWith(`"wallets":["S3CRET"]`),
		[]string{`wallets[0]: want object ($wallet), got a string (secret)`}},
	{"a list of refs holding a secret, given a list", payWith(`"wallets":[[{"key":{"code":"S3CRET"}}]]`),
		[]string{`wallets[0]: want object ($wallet), got an array (secret)`}},
	{"a ref holding a secret, given a string", payWith(`"wallets":"S3CRET"`),
		[]string{`wallets: want object or list ($wallet), got a string (secret)`}},
	{"a nested ref holding a secret, given a string", payWith(`"wallets":[{"label":"x","key":"S3CRET"}]`),
		[]string{`wallets[0].key: want object or list ($keyring), got a string (secret)`}},
	{"a ref to itself, two levels down",
		payWith(`"wallets":[{"label":"x","key":{"id":1,"code":"a","next":{"id":2,"code":5,"next":"S3CRET"}}}]`),
		[]string{
			`wallets[0].key.next.code: want string, got a number (secret)`,
			`wallets[0].key.next.next: want object or list ($keyring), got a string (secret)`,
		}},
	{"a renamed secret under its declared name", payWith(`"renamed":"S3CRET"`),
		[]string{`renamed: undeclared key, got a string (secret)`}},
	{"a secret field's duplicate", payWith(`"pin":"abcd","pin":"S3CRET"`),
		[]string{`pin: duplicate key`}},
	{"a key spelled with an escape", `{"id":1,"p\u0069n":["S3CRET"],"card":null,"g":{"tok":null},"wallets":null,"rn":null}`,
		[]string{`pin: want string matching min 4, got an array (secret)`}},
	{"a payload that is a string", `"S3CRET"`,
		[]string{`(root): want object or list ($pay), got a string (secret)`}},
	{"a payload that is a list of strings", `["S3CRET"]`,
		[]string{`[0]: want object ($pay), got a string (secret)`}},
	{"a payload that is a list of lists", `[[{"pin":"S3CRET"}]]`,
		[]string{`[0]: want object ($pay), got an array (secret)`}},
	{"a deep secret", payWith(`"pin":` + strings.Repeat("[", 100) + `"S3CRET"` + strings.Repeat("]", 100)),
		[]string{`pin: want string matching min 4, got an array (secret)`}},
	{"not JSON, stopping at a secret's byte", `{"id":1,"pin":"x" S3CRET}`,
		[]string{`(root): invalid JSON: invalid character after object key:value pair (at byte 19)`}},
	{"not JSON, stopping in a secret's literal", `{"id":1,"pin":tS3CRET}`,
		[]string{`(root): invalid JSON: invalid character in literal true (expecting 'r') (at byte 16)`}},
	{"an undeclared key outside the secrets still shows its value", payWith(`"x":"visible"`),
		[]string{`x: undeclared key, got "visible"`}},
}

// TestConformLeak checks that Conform shows no value, and no undeclared
// key, under a secret field, wherever the secret hides.
func TestConformLeak(t *testing.T) {
	pay := leakRegistry(t).Lookup("pay")
	for _, tt := range leakConformTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, opts := range [][]Option{nil, {IgnoreOrder()}} {
				tb := &fakeTB{}
				ok := Conform(tb, pay, []byte(tt.payload), opts...)
				if opts == nil {
					checkReport(t, tb, ok, tt.want)
				}
				noLeak(t, tb)
			}
		})
	}
}

// noLeak fails when a message the checker printed holds the secret.
func noLeak(t *testing.T, tb *fakeTB) {
	t.Helper()
	for _, m := range append(append(tb.errors, tb.fatals...), tb.logs...) {
		if strings.Contains(m, leak) {
			t.Errorf("a message shows a secret: %q", m)
		}
	}
}

var leakResponseTests = []struct {
	name       string
	status     int
	body       string
	wantStatus int
	want       []string
}{
	{"wrong status, a group given a list", 200, `{"id":1,"g":[{"tok":"S3CRET"}]}`, 400,
		[]string{`status: got 200, want 400; body: {"id":1,"g":"(secret)"}`}},
	{"wrong status, a group given a string", 200, `{"id":1,"g":"S3CRET"}`, 400,
		[]string{`status: got 200, want 400; body: {"id":1,"g":"(secret)"}`}},
	{"wrong status, a payload that is a string", 200, `"S3CRET"`, 400,
		[]string{`status: got 200, want 400; body: "(secret)"`}},
	{"wrong status, a list of lists", 200, `[[{"pin":"S3CRET"}],{"id":1}]`, 400,
		[]string{`status: got 200, want 400; body: ["(secret)",{"id":1}]`}},
	{"wrong status, a list of refs holding a secret", 200, `{"wallets":["S3CRET",{"label":"l","key":"S3CRET"},{"key":[{"id":1,"code":"S3CRET"}]}]}`, 400,
		[]string{`status: got 200, want 400; body: {"wallets":["(secret)",{"label":"l","key":"(secret)"},{"key":[{"id":1,"code":"(secret)"}]}]}`}},
	{"wrong status, a renamed secret under its declared name", 200, `{"rn":"S3CRET","renamed":"S3CRET"}`, 400,
		[]string{`status: got 200, want 400; body: {"rn":"(secret)","renamed":"(secret)"}`}},
	{"wrong status, an undeclared key outside the secrets", 200, `{"id":1,"x":{"a":1}}`, 400,
		[]string{`status: got 200, want 400; body: {"id":1,"x":{"a":1}}`}},
	{"400 with the payload", 400, `{"pin":"S3CRET","card":{"number":"S3CRET"}}`, 400,
		[]string{
			`error body: type: missing key, want string matching min 1`,
			`error body: title: missing key, want string matching min 1`,
			`error body: status: missing key, want number matching range 100 599`,
			`error body: detail: missing key, want string matching min 1`,
			`error body: pin: undeclared key, got a string`,
			`error body: card: undeclared key, got an object`,
			`error body: read as $pay: {"pin":"(secret)","card":"(secret)"}`,
		}},
	{"500 with the payload", 500, `{"type":"about:blank","title":"t","status":500,"detail":"d","id":7,"pin":"S3CRET","card":{"number":"S3CRET"}}`, 500,
		[]string{
			`error body: id: undeclared key, got a number`,
			`error body: pin: undeclared key, got a string`,
			`error body: card: undeclared key, got an object`,
			`error body: read as $pay: {"type":"about:blank","title":"t","status":500,"detail":"d","id":7,"pin":"(secret)","card":"(secret)"}`,
		}},
	{"400 with a list of payloads", 400, `[{"pin":"S3CRET"}]`, 400,
		[]string{
			`error body: [0].type: missing key, want string matching min 1`,
			`error body: [0].title: missing key, want string matching min 1`,
			`error body: [0].status: missing key, want number matching range 100 599`,
			`error body: [0].detail: missing key, want string matching min 1`,
			`error body: [0].pin: undeclared key, got a string`,
			`error body: read as $pay: [{"pin":"(secret)"}]`,
		}},
	{"400 with a body that is not JSON", 400, `{"detail":S3CRET}`, 400,
		[]string{`error body: (root): invalid JSON: invalid character looking for beginning of value (at byte 11)`}},
	{"400 with a string", 400, `"S3CRET"`, 400,
		[]string{`error body: (root): want object or list ($problem), got a string`}},
	{"400 with a detail that is an object", 400, `{"type":"about:blank","title":"t","status":400,"detail":{"pin":"S3CRET"}}`, 400,
		[]string{`error body: detail: want string matching min 1, got an object`}},
	{"400 with a value in a field error", 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"d","errors":[{"pointer":"/pin","path":"pin","outputPath":"pin","code":"min","message":"is too short","value":"S3CRET"}]}`, 400,
		[]string{`error body: errors[0].value: undeclared key, got a string`}},
	{"400 with a value in params", 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"d","errors":[{"pointer":"/pin","path":"pin","outputPath":"pin","code":"min","params":{"pin":"S3CRET"},"message":"is too short"}]}`, 400,
		nil},
	{"400 with field errors in an object", 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"d","errors":{"pointer":"/pin","path":"pin","outputPath":"pin","code":"min","message":"m","pin":"S3CRET"}}`, 400,
		[]string{
			`error body: errors.pin: undeclared key, got a string`,
			`error body: errors: want a list of at least 1 field error, got an object`,
		}},
	{"400 with a message of the wrong type", 400, `{"type":"/problems/validation","title":"Validation failed","status":400,"detail":"d","errors":[{"pointer":"/pin","path":"pin","outputPath":"pin","code":"min","message":["S3CRET"]}]}`, 400,
		[]string{`error body: errors[0].message: want string matching min 1, got an array`}},
	{"400 with a detail that holds the value", 400, `{"type":"about:blank","title":"t","status":400,"detail":"pin S3CRET is too short"}`, 400,
		nil},
}

// TestCheckResponseLeak checks that CheckResponse shows no secret value of
// a body: one dumped for a wrong status, and one checked as an error body.
func TestCheckResponseLeak(t *testing.T) {
	pay := leakRegistry(t).Lookup("pay")
	for _, tt := range leakResponseTests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeRaw(tt.status, contentTypeOf(tt.status), tt.body)(rec, httptest.NewRequest("GET", "/", nil))
			tb := &fakeTB{}
			ok := CheckResponse(tb, rec, pay, tt.wantStatus)
			checkReport(t, tb, ok, tt.want)
			noLeak(t, tb)
		})
	}
}

// TestLeakSweep sends every payload of the tables above whose secret is
// under a secret field of $pay, and a few that are not JSON, through Conform and through CheckResponse at each pair of
// statuses, and checks only that no message holds the secret.
func TestLeakSweep(t *testing.T) {
	pay := leakRegistry(t).Lookup("pay")
	payloads := []string{
		`{"id":1,"pin":"S3CRET",}`,
		`{"id":1,"pin":"S3CRET"`,
		"{\"id\":1,\"pin\":\"S3CRET\xff\"}",
		`{"id":1,"pin":1e400}`,
	}
	for _, tt := range leakConformTests {
		payloads = append(payloads, tt.payload)
	}
	for _, tt := range leakResponseTests {
		// An error body's secret is under no field of $pay: a wrong-status
		// dump shows it, as it shows any key that $pay does not declare.
		if !strings.Contains(tt.body, `"detail":`) {
			payloads = append(payloads, tt.body)
		}
	}
	for _, p := range payloads {
		if !strings.Contains(p, leak) {
			continue
		}
		for _, opts := range [][]Option{nil, {IgnoreOrder()}} {
			tb := &fakeTB{}
			Conform(tb, pay, []byte(p), opts...)
			noLeak(t, tb)
		}
		for _, status := range []int{200, 201, 204, 400, 404, 500} {
			for _, wantStatus := range []int{200, 204, 400, 422, 500} {
				rec := httptest.NewRecorder()
				writeRaw(status, contentTypeOf(status), p)(rec, httptest.NewRequest("GET", "/", nil))
				tb := &fakeTB{}
				CheckResponse(tb, rec, pay, wantStatus)
				noLeak(t, tb)
			}
		}
	}
}

// versionedSecretRegistry declares a login whose pw is a secret string
// until v2 and a plain number from v2 on (one key, two fields), and a
// holder of a card merged into it as a secret.
func versionedSecretRegistry(t *testing.T) *entity.Registry {
	t.Helper()
	r := entity.NewRegistry()
	r.MustExpose("login",
		"user", "string", "",
		"pw", "string", "secret | until 'v2'",
		"pw", "number", "since 'v2'",
	)
	r.MustExpose("card",
		"number", "string", "req | min 16",
		"meta", "{", "",
		"tag", "string", "",
		"meta", "}", "",
	)
	r.MustExpose("wallet",
		"name", "string", "",
		"card", "$card", "merge | secret",
	)
	return r
}

// TestConformHidesSecretOfMerge: the keys a secret merged $ref writes into
// its parent are secret: Conform shows none of their values, nor undeclared
// keys under them.
func TestConformHidesSecretOfMerge(t *testing.T) {
	wallet := versionedSecretRegistry(t).Lookup("wallet")
	tests := []struct {
		name    string
		payload string
		want    []string
	}{
		{"conforms", `{"name":"w","number":"1234567812345678","meta":{"tag":"t"}}`, nil},
		{"a merged value fails its rule", `{"name":"w","number":"hunter2","meta":{"tag":null}}`,
			[]string{`number: want string matching min 16, got a string (secret): is not valid (min)`}},
		{"a merged group of the wrong type", `{"name":"w","number":"1234567812345678","meta":["hunter2"]}`,
			[]string{`meta: want object (group), got an array (secret)`}},
		{"an undeclared key in a merged group", `{"name":"w","number":"1234567812345678","meta":{"tag":null,"hunter2":"hunter2"}}`,
			[]string{`meta: an undeclared key (secret)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Conform(tb, wallet, []byte(tt.payload))
			checkReport(t, tb, ok, tt.want)
			noSecret(t, tb, secretWord)
		})
	}
}

// TestCheckResponseHidesSecretOfMerge: a body of the wrong status shows
// no value a secret merged $ref wrote.
func TestCheckResponseHidesSecretOfMerge(t *testing.T) {
	wallet := versionedSecretRegistry(t).Lookup("wallet")
	rec := httptest.NewRecorder()
	writeRaw(200, jsonCT, `{"name":"w","number":"hunter2","meta":{"tag":"hunter2"}}`)(rec, httptest.NewRequest("GET", "/", nil))
	tb := &fakeTB{}
	ok := CheckResponse(tb, rec, wallet, 201)
	checkReport(t, tb, ok, []string{`status: got 200, want 201; body: {"name":"w","number":"(secret)","meta":"(secret)"}`})
	noSecret(t, tb, secretWord)
}

// TestCheckResponseHidesSecretSharedByVersion: where a secret field shares
// its key with another version's field, no value under that key is shown,
// whichever version the check is told of: the body may come from a call
// of the other one.
func TestCheckResponseHidesSecretSharedByVersion(t *testing.T) {
	login := versionedSecretRegistry(t).Lookup("login")
	body := `{"user":"u","pw":"hunter2"}`
	for _, opts := range [][]Option{nil, {Call(entity.Version("v1"))}, {Call(entity.Version("v3"))}} {
		rec := httptest.NewRecorder()
		writeRaw(200, jsonCT, body)(rec, httptest.NewRequest("GET", "/", nil))
		tb := &fakeTB{}
		ok := CheckResponse(tb, rec, login, 400, opts...)
		checkReport(t, tb, ok, []string{`status: got 200, want 400; body: {"user":"u","pw":"(secret)"}`})
		noSecret(t, tb, secretWord)

		tb = &fakeTB{}
		Conform(tb, login, []byte(body), opts...)
		noSecret(t, tb, secretWord)
	}
}
