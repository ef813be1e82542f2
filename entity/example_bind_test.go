package entity_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
)

// Bind validates a request and fills the handler's struct: a group into a
// nested struct, a date into a time.Time, the output names by json tag.
func ExampleEntity_Bind() {
	reg := entity.NewRegistry()
	signup := reg.MustExpose("signup", "POST",
		"name", "string", "req | min 2",
		"born", "date", "",
		"address", "{", "rename 'addr'",
		"city", "string", "req",
		"zip", "string", "default '000-0000'",
		"address", "}", "",
	)
	type Signup struct {
		Name string    `json:"name"`
		Born time.Time `json:"born"`
		Addr struct {
			City string `json:"city"`
			Zip  string `json:"zip"`
		} `json:"addr"`
	}

	r := httptest.NewRequest("POST", "/signup", strings.NewReader(`{"name":"ann","born":"2001-02-03","city":"Tokyo"}`))
	r.Header.Set("Content-Type", "application/json")
	var s Signup
	err := signup.Bind(r, &s)
	fmt.Println(err, s.Name, s.Born.Format(time.DateOnly), s.Addr.City, s.Addr.Zip)

	r = httptest.NewRequest("POST", "/signup", strings.NewReader(`{"name":"a","born":"2001-02-03","city":"Tokyo"}`))
	r.Header.Set("Content-Type", "application/json")
	err = signup.Bind(r, &s)
	fmt.Println(errors.Is(err, entity.ErrValidation))
	// Output:
	// <nil> ann 2001-02-03 Tokyo 000-0000
	// true
}
