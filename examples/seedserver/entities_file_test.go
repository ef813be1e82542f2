package main

import (
	"os"
	"slices"
	"testing"

	"github.com/expose-go/expose/dsl"
	"github.com/expose-go/expose/entity"
)

// TestEntitiesFile: schemas/seed.entity declares exactly the entities of
// entities.go, each with the same triples; and each Go declaration,
// written as a file, reads back as the same triples.
func TestEntitiesFile(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil { // as entities.go declares it
		t.Fatal(err)
	}
	if err := reg.LoadFS(os.DirFS("."), "schemas/*.entity"); err != nil {
		t.Fatal(err)
	}
	if got, want := reg.Names(), entity.Default.Names(); !slices.Equal(got, want) {
		t.Fatalf("the file declares %q, entities.go %q", got, want)
	}
	for _, name := range reg.Names() {
		t.Run(name, func(t *testing.T) {
			goDecl := entity.Lookup(name).Decl()
			if want, got := goDecl.Triples(), reg.Lookup(name).Decl().Triples(); !slices.Equal(want, got) {
				t.Errorf("triples:\n%q in entities.go\n%q in seed.entity", want, got)
			}
			out, err := dsl.PrintEntities(goDecl)
			if err != nil {
				t.Fatal(err)
			}
			f, err := dsl.ParseFile(name+".entity", out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if want, got := goDecl.Triples(), f.Entities[0].Triples(); !slices.Equal(want, got) {
				t.Errorf("Go declaration through the file form:\n%q\nthen\n%q", want, got)
			}
		})
	}
}
