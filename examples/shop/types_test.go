package main

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	"github.com/expose-go/expose/entity"
	"github.com/expose-go/expose/entity/entitytest"
)

// TestEntityTypes: the generated structs, and the store's record, have a
// field for every field their direction reads, for each audience.
func TestEntityTypes(t *testing.T) {
	admin := entitytest.Call(entity.With("admin"))
	entitytest.CheckStruct(t, customers, Customer{})
	entitytest.CheckStruct(t, customers, Customer{}, admin)
	entitytest.CheckStruct(t, customers, record{}, admin)
	entitytest.CheckStruct(t, customers, record{}, entitytest.Request())
	entitytest.CheckStruct(t, customerPage, CustomerPage{}, admin)
	entitytest.CheckStruct(t, byID, ByIDRequest{}, entitytest.Request())
	entitytest.CheckStruct(t, customerQuery, CustomerQueryRequest{}, entitytest.Request())
	entitytest.CheckStruct(t, orderEntity, Order{})
	entitytest.CheckStruct(t, orderEntity, Order{}, entitytest.Request())
}

// TestGeneratedUpToDate: entities_gen.go is what expose gen writes for
// schemas/shop.entity now (go generate ./shop rewrites it).
func TestGeneratedUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/expose")
	}
	out := t.TempDir() + "/gen.go"
	cmd := exec.Command("go", "run", "github.com/expose-go/expose/cmd/expose",
		"gen", "-flags", "admin", "-f", "schemas/shop.entity", "-package", "main", "-o", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("expose gen: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("entities_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("entities_gen.go is not what expose gen writes: run go generate ./shop")
	}
}
