package entity_test

import (
	"fmt"
	"testing/fstest"

	"github.com/expose-go/expose/entity"
)

// The comment lines directly above an entity or a field of an .entity file
// are its description, as `doc 'text'` is in triples; a blank line
// detaches a header comment. Tools read them: the schemas' "description",
// the docs page, the doc comments `expose gen` writes.
func ExampleRegistry_LoadFS_descriptions() {
	schemas := fstest.MapFS{"schemas/shop.entity": {Data: []byte(`# shop.entity: the shop's entities (a header: the blank line detaches it).

# A customer of the shop.
customer {
  # The id the server assigns.
  id     number  readonly | req
  name   string  req | doc 'The full name.' | example 'Ann Lee'
}
`)}}
	reg := entity.NewRegistry()
	if err := reg.LoadFS(schemas, "schemas/*.entity"); err != nil {
		fmt.Println(err)
		return
	}
	c := reg.MustLookup("customer")
	fmt.Printf("%q\n", c.Decl().Doc)
	for _, f := range c.Fields() {
		fmt.Printf("%s: %q, example %q\n", f.Key, f.Doc, f.Example)
	}
	// Output:
	// "A customer of the shop."
	// id: "The id the server assigns.", example ""
	// name: "The full name.", example "\"Ann Lee\""
}
