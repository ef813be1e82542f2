package entity_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/expose-go/expose/entity"
)

type ctxKey struct{}

// TestChecked: a handle's request checks run with the request's context,
// after the declared rules and only when they passed; their field errors
// are a 400 in the request's language, any other error the server's.
func TestChecked(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareCode("no_customer", map[string]string{"en": "names no customer", "ja": "顧客が見つかりません"}); err != nil {
		t.Fatal(err)
	}
	base := expose(t, reg, "order", "POST", "customer_id", "number", "req", "qty", "number", "range 1 10")
	var ran int
	orders := base.Checked(func(ctx context.Context, o *entity.Object) error {
		ran++
		if ctx.Value(ctxKey{}) != "req" {
			t.Error("the check did not get the request's context")
		}
		switch id, _ := o.Get("customer_id"); id {
		case int64(1):
			return nil
		case int64(2):
			return errors.New("the database is down")
		}
		return errors.Join(entity.NewFieldError("/customer_id", "no_customer", nil), entity.NewFieldError("/qty", "no_customer", nil))
	})
	post := func(body string, header ...string) error {
		r := rqRequest("POST", "/", "application/json", body, header...)
		r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, "req"))
		_, err := orders.MakeRequest(r)
		return err
	}
	if err := post(`{"customer_id":1,"qty":2}`); err != nil {
		t.Errorf("a request the check passes: %v", err)
	}
	ran = 0
	if err := post(`{"customer_id":7,"qty":20}`); ran != 0 || fieldErrorsOrNone(err)[0].Path != "qty" {
		t.Errorf("the check ran (%d) on a request the declared rules refuse: %v", ran, err)
	}
	err := post(`{"customer_id":7,"qty":2}`, "Accept-Language", "ja")
	fs := fieldErrorsOrNone(err)
	if len(fs) != 2 || fs[0].Pointer != "/customer_id" || fs[0].Message != "顧客が見つかりません" {
		t.Fatalf("got %v", err)
	}
	rec := httptest.NewRecorder()
	entity.WriteError(rec, err)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "no_customer") {
		t.Errorf("%d %s", rec.Code, rec.Body)
	}
	err = post(`{"customer_id":2,"qty":2}`)
	rec = httptest.NewRecorder()
	entity.WriteError(rec, err)
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "database") {
		t.Errorf("the server's error: %d %s", rec.Code, rec.Body)
	}
	if _, err := base.MakeRequest(rqRequest("POST", "/", "application/json", `{"customer_id":7}`)); err != nil {
		t.Errorf("the entity itself has no check: %v", err)
	}
}
