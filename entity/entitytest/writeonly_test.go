package entitytest

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

// writeOnlyRegistry declares an account whose password a request reads
// and no response writes, directly, renamed, under a key case, and inside
// a referenced entity.
func writeOnlyRegistry(t *testing.T) *entity.Registry {
	t.Helper()
	r := entity.NewRegistry(entity.KeyCase(entity.CamelCase))
	r.MustExpose("cred",
		"login", "string", "",
		"pass_word", "string", "writeonly",
	)
	r.MustExpose("account",
		"name", "string", "req",
		"password", "string", "writeonly | min 6",
		"pin", "string", "writeonly | rename 'code'",
		"cred", "$cred", "",
	)
	return r
}

var writeOnlyTests = []struct {
	name    string
	payload string
	want    []string
}{
	{"a response without writeonly keys", `{"name":"a","cred":{"login":"l"}}`, nil},
	{"a writeonly key", `{"name":"a","password":"hunter2","cred":null}`,
		[]string{`password: writeonly key: a response never writes it`}},
	{"a renamed writeonly key, and under its name", `{"name":"a","code":"hunter2","pin":"hunter2","cred":null}`,
		[]string{`code: writeonly key: a response never writes it`, `pin: writeonly key: a response never writes it`}},
	{"a writeonly key in a referenced entity, key-cased", `{"name":"a","cred":{"login":"l","passWord":"hunter2"}}`,
		[]string{`cred.passWord: writeonly key: a response never writes it`}},
	{"a writeonly key of any JSON type", `{"name":"a","password":{"plain":"hunter2"},"cred":[{"login":"l","pass_word":["hunter2"]}]}`,
		[]string{`cred[0].pass_word: writeonly key: a response never writes it`, `password: writeonly key: a response never writes it`}},
}

// TestConformFailsWriteOnlyKey: a response that holds a writeonly field's
// key fails Conform, which names the key and prints no value under it.
func TestConformFailsWriteOnlyKey(t *testing.T) {
	account := writeOnlyRegistry(t).Lookup("account")
	for _, tt := range writeOnlyTests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			ok := Conform(tb, account, []byte(tt.payload))
			checkReport(t, tb, ok, tt.want)
			noSecret(t, tb, secretWord)
		})
	}
}

// TestCheckResponseFailsWriteOnlyKey: the same of CheckResponse, for a
// success body; a body of the wrong status shows no writeonly value.
func TestCheckResponseFailsWriteOnlyKey(t *testing.T) {
	account := writeOnlyRegistry(t).Lookup("account")
	for _, tt := range writeOnlyTests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeRaw(201, jsonCT, tt.payload)(rec, httptest.NewRequest("POST", "/", nil))
			tb := &fakeTB{}
			ok := CheckResponse(tb, rec, account, 201)
			checkReport(t, tb, ok, tt.want)
			noSecret(t, tb, secretWord)

			tb = &fakeTB{}
			if CheckResponse(tb, rec, account, 200) {
				t.Errorf("a 201 passes for a 200")
			}
			noSecret(t, tb, secretWord)
		})
	}
}

// noSecret fails when a message the checker printed holds secret.
func noSecret(t *testing.T, tb *fakeTB, secret string) {
	t.Helper()
	for _, m := range append(append(tb.errors, tb.fatals...), tb.logs...) {
		if strings.Contains(m, secret) {
			t.Errorf("a message shows a secret value: %q", m)
		}
	}
}
