package entity_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/expose-go/expose/entity"
)

// An immutable field is set once: a request that creates reads it as any
// field, a patch may send the value it holds, but not change it.
func ExampleEntity_Patch_immutable() {
	reg := entity.NewRegistry()
	account := reg.MustExpose("account",
		"handle", "string", "immutable | req",
		"name", "string", "",
	)
	current := map[string]any{"handle": "ann", "name": "Ann"}
	for _, body := range []string{`{"handle":"ann","name":"Annie"}`, `{"handle":"bob"}`} {
		r := httptest.NewRequest("PATCH", "/accounts/1", strings.NewReader(body))
		r.Header.Set("Content-Type", entity.MergePatchType)
		merged, _, err := account.Patch(r, current)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(merged)
	}
	// Output:
	// {"handle":"ann","name":"Annie"}
	// entity "account": 1 field failed: handle: cannot change once set (immutable)
}
