package entity_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
)

// Bind validates a request, sent in the shape responses write (a group as
// an object under its key), and fills the handler's struct by the
// declared names (a group's fields beside their siblings), the struct Make
// reads: a date into a time.Time.
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
		City string    `json:"city"`
		Zip  string    `json:"zip"`
	}

	r := httptest.NewRequest("POST", "/signup", strings.NewReader(`{"name":"ann","born":"2001-02-03","addr":{"city":"Tokyo"}}`))
	r.Header.Set("Content-Type", "application/json")
	var s Signup
	err := signup.Bind(r, &s)
	fmt.Println(err, s.Name, s.Born.Format(time.DateOnly), s.City, s.Zip)

	r = httptest.NewRequest("POST", "/signup", strings.NewReader(`{"name":"a","born":"2001-02-03","addr":{"city":"Tokyo"}}`))
	r.Header.Set("Content-Type", "application/json")
	err = signup.Bind(r, &s)
	fmt.Println(errors.Is(err, entity.ErrValidation))
	// Output:
	// <nil> ann 2001-02-03 Tokyo 000-0000
	// true
}
