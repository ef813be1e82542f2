package main

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestConcurrentRequests: the store takes requests of every kind at once
// (run with -race); every customer created gets its own id.
func TestConcurrentRequests(t *testing.T) {
	h := withCustomers(t, ann)
	const n = 8
	var wg sync.WaitGroup
	ids := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := call(t, h, "POST", "/customers", bob)
			ids <- rec.Header().Get("Location")
			call(t, h, "PATCH", "/customers/1", fmt.Sprintf(`{"name":"Ann %d"}`, i), "Content-Type", entity.MergePatchType)
			call(t, h, "POST", "/orders", `{"customer_id":1,"items":[{"sku":"TEA-1","quantity":1}],"delivery":"pickup","payment":{"method":"invoice","po_number":"PO-1"}}`)
			call(t, h, "GET", "/customers?limit=100", "", "X-Role", "admin")
			call(t, h, "GET", "/orders/1", "")
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		if seen[id] || id == "" {
			t.Errorf("Location %q twice or empty", id)
		}
		seen[id] = true
	}
	if rec := call(t, h, "GET", fmt.Sprintf("/orders/%d", n), ""); rec.Code != http.StatusOK {
		t.Errorf("order %d: %d", n, rec.Code)
	}
}
