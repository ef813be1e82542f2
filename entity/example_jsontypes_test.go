package entity_test

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/expose-go/expose/entity"
)

// In a registry of JSONTypes a JSON body gives each number, bool and date
// as the JSON type a response writes; its text is a type error, which a
// registry without the option converts. The query stays text.
func ExampleJSONTypes() {
	reg := entity.NewRegistry(entity.JSONTypes())
	booking := reg.MustExpose("booking", "POST",
		"seats", "number", "req | min 1",
		"vip", "bool", "",
		"at", "date", "req",
		"page", "number", "query | default 1",
	)
	type Booking struct {
		Seats int64     `json:"seats"`
		VIP   bool      `json:"vip"`
		At    time.Time `json:"at"`
		Page  int64     `json:"page"`
	}
	post := func(body string) error {
		r := httptest.NewRequest("POST", "/bookings?page=2", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		var b Booking
		err := booking.Bind(r, &b)
		if err == nil {
			fmt.Println(b.Seats, b.VIP, b.At.Format(time.RFC3339), b.Page)
		}
		return err
	}

	fmt.Println(post(`{"seats":2,"vip":true,"at":"2026-12-01T19:00:00+09:00"}`))
	err := post(`{"seats":"2","vip":1,"at":"2026/12/1"}`)
	var ve *entity.ValidationError
	if errors.As(err, &ve) {
		for _, f := range ve.Fields {
			fmt.Println(f.Path, f.Code, f.Message)
		}
	}
	// Output:
	// 2 true 2026-12-01T10:00:00Z 2
	// <nil>
	// seats type must be an integer, got a string
	// vip type must be a boolean, got a number
	// at type must be a date, got a string
}
