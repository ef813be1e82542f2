package bench

import (
	"strconv"

	"github.com/expose-go/expose/entity"
)

// Struct inputs: what Go handlers mostly hold (database/sql scans, sqlc,
// ent, gorm). Row is a row of such a query, read through two entities: one
// without rules (against the encoders, which check nothing) and one with
// `req`, `email` and `range`. SeedUser and SeedUsers are the seed's payload
// as structs, so that the same data is timed from maps and from structs.

// Row is one row of a query: the struct{ID int64; Name, Mail
// string; Age int}, with json tags so that every encoder writes the same
// keys as the entities.
type Row struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Mail string `json:"mail"`
	Age  int    `json:"age"`
}

// Rows returns n rows, deterministically, every one valid for the checked
// entity.
func Rows(n int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		name := firstNames[i%len(firstNames)] + strconv.Itoa(i)
		rows[i] = Row{ID: int64(1000 + i*7), Name: name, Mail: name + "@example" + strconv.Itoa(i%5) + ".com", Age: 18 + i%60}
	}
	return rows
}

// NewRowRegistry returns a registry holding the row entities: `row`, the
// four fields without rules, and `checkedrow`, the same with `req`,
// `email` and `range`.
func NewRowRegistry() *entity.Registry {
	reg := entity.NewRegistry()
	reg.MustExpose("row",
		"id", "number", "",
		"name", "string", "",
		"mail", "string", "",
		"age", "number", "",
	)
	reg.MustExpose("checkedrow",
		"id", "number", "req",
		"name", "string", "req",
		"mail", "string", "req | email",
		"age", "number", "range 0 150",
	)
	if err := reg.Verify(); err != nil {
		panic(err)
	}
	return reg
}

// SeedUser is one user of the seed's payload as a struct: the keys and Go
// types of Users' maps (id a numeric string, age an int).
type SeedUser struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Age  int    `json:"age"`
	Mail string `json:"mail"`
}

// SeedUsers is the seed's payload as a struct.
type SeedUsers struct {
	Limit int        `json:"limit"`
	List  []SeedUser `json:"list"`
}

// UsersStruct returns Users(n) as structs: the same data, so that the
// library writes the same bytes for both.
func UsersStruct(n int) *SeedUsers {
	m := Users(n)
	list := m["list"].([]any)
	out := &SeedUsers{Limit: m["limit"].(int), List: make([]SeedUser, len(list))}
	for i, x := range list {
		u := x.(map[string]any)
		out.List[i] = SeedUser{ID: u["id"].(string), Name: u["name"].(string), Age: u["age"].(int), Mail: u["mail"].(string)}
	}
	return out
}
