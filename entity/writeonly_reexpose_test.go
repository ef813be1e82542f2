package entity_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestRequestObjectWritesNoWriteOnlyAfterReexpose: an Object of a request
// writes no writeonly value, "at every depth", whatever happens to the
// entities it references afterwards: once a referenced entity is exposed
// again (without the field, or with it under other rules), the Object's
// references still write the response form of the declaration their
// values were made with.
func TestRequestObjectWritesNoWriteOnlyAfterReexpose(t *testing.T) {
	tests := []struct {
		name   string
		redecl []string // addr, exposed again after the request was made
	}{
		{"the field dropped", []string{"city", "string", ""}},
		{"the field renamed", []string{"city", "string", "", "pw", "string", "writeonly | rename 'p'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "addr", "city", "string", "", "pw", "string", "writeonly")
			e := expose(t, reg, "person", "name", "string", "", "a", "$addr", "", "as", "[]$addr", "")
			o, err := e.MakeRequest(bindRequest("POST", "/", `{"name":"n","a":{"city":"x","pw":"hunter2"},"as":[{"pw":"hunter2"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			expose(t, reg, "addr", tt.redecl...)
			a, _ := o.Get("a")
			as, _ := o.Get("as")
			sub, _ := a.(*entity.Object)
			subs, _ := as.([]*entity.Object)
			outs := map[string]string{"the Object": o.String()}
			if sub != nil {
				b, _ := json.Marshal(sub)
				outs["Get(a).String()"], outs["json.Marshal(Get(a))"] = sub.String(), string(b)
			}
			for i, s := range subs {
				outs[fmt.Sprintf("Get(as)[%d].String()", i)] = s.String()
			}
			for what, out := range outs {
				if strings.Contains(out, "hunter2") {
					t.Errorf("%s = %s: writes a writeonly value", what, out)
				}
			}
		})
	}
}

// TestRequestObjectWritesNoWriteOnlyDuringReexpose: a request made while
// an entity it references is exposed again writes no writeonly value:
// the call's Object is written with the declarations its values were made
// with, never those of another moment.
func TestRequestObjectWritesNoWriteOnlyDuringReexpose(t *testing.T) {
	const calls = 20000 // a leak showed within about a thousand
	tests := []struct {
		name string
		call func(e *entity.Entity, body string) (*entity.Object, error)
	}{
		{"MakeRequest", func(e *entity.Entity, body string) (*entity.Object, error) {
			return e.MakeRequest(bindRequest("POST", "/", body))
		}},
		{"Patch", func(e *entity.Entity, body string) (*entity.Object, error) {
			o, _, err := e.Patch(patchRequest(body), nil)
			return o, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := entity.NewRegistry()
			expose(t, reg, "addr", "city", "string", "", "pw", "string", "writeonly")
			e := expose(t, reg, "person", "name", "string", "", "a", "$addr", "")
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; !stop.Load(); i++ {
					if i%2 == 0 {
						reg.MustExpose("addr", "city", "string", "", "pw", "string", "writeonly", "zip", "string", "")
					} else {
						reg.MustExpose("addr", "city", "string", "")
					}
				}
			}()
			defer func() { stop.Store(true); wg.Wait() }()
			for i := 0; i < calls; i++ {
				o, err := tt.call(e, `{"a":{"city":"x","pw":"hunter2"}}`)
				if err != nil {
					continue
				}
				if s := o.String(); strings.Contains(s, "hunter2") {
					t.Fatalf("call %d: the Object writes %s: a writeonly value", i, s)
				}
			}
		})
	}
}
