package entity_test

import (
	"net/http"
	"testing"

	"github.com/expose-go/expose/entity"
)

// TestDenyUnknownRefusesHiddenKeys: to a call, a field its flags or
// version hide does not exist, so DenyUnknown refuses its key as it
// refuses a key no field has, readonly fields among them (whose keys it
// accepts only when the call sees them: "a client may send back what it
// got"), and in the query string too (a client cannot tell a hidden field
// from no field by which keys are refused).
func TestDenyUnknownRefusesHiddenKeys(t *testing.T) {
	reg := entity.NewRegistry()
	if err := reg.DeclareFlags("admin"); err != nil {
		t.Fatal(err)
	}
	expose(t, reg, "sub", "sh", "string", "readonly | if 'admin'")
	e := expose(t, reg, "hidden",
		"name", "string", "",
		"rid", "number", "readonly | if 'admin'",
		"rv", "number", "readonly | since 'v2'",
		"s", "$sub", "",
		"qq", "string", "query | if 'admin'",
	)
	tests := []struct {
		name string
		r    *http.Request
		opts []entity.Option
	}{
		{"a readonly key a flag hides", bindRequest("POST", "/", `{"rid":1}`), nil},
		{"a readonly key of a later version", bindRequest("POST", "/", `{"rv":1}`), []entity.Option{entity.Version("v1")}},
		{"a referenced entity's readonly key a flag hides", bindRequest("POST", "/", `{"s":{"sh":"x"}}`), nil},
		{"a query parameter a flag hides", bindRequest("GET", "/?qq=1", ""), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, err := e.MakeRequest(tt.r, append(tt.opts, entity.DenyUnknown())...)
			if err == nil {
				t.Fatalf("MakeRequest with DenyUnknown = %s, want an unknown key (the call has no such field)", o)
			}
			if fes := fieldErrors(t, err); len(fes) != 1 || fes[0].Code != "unknown" {
				t.Errorf("MakeRequest with DenyUnknown: %v, want one unknown key", err)
			}
		})
	}
}

// TestDenyUnknownJudgesTheGroupsOfAnObject: an Object of the entity made
// again is read in the wire form, a group as the object under its key, and
// DenyUnknown judges that object's keys as a request's group's: a key of a
// field the call does not see (another version's) is unknown there too.
func TestDenyUnknownJudgesTheGroupsOfAnObject(t *testing.T) {
	reg := entity.NewRegistry()
	e := expose(t, reg, "e",
		"g", "{", "",
		"a", "string", "",
		"b", "string", "since 'v2'",
		"g", "}", "",
	)
	o, err := e.MakeRequest(bindRequest("POST", "/", `{"g":{"a":"x","b":"y"}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		opts    []entity.Option
		unknown string // the unknown key's path, "" for none
	}{
		{"the latest version", nil, ""},
		{"a version with the field", []entity.Option{entity.Version("v3")}, ""},
		{"a version without it", []entity.Option{entity.Version("v1")}, "g.b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.MakeJSON(o, append(tt.opts, entity.DenyUnknown())...)
			switch {
			case tt.unknown == "" && err != nil:
				t.Errorf("MakeJSON = %v, want %s", err, got)
			case tt.unknown != "":
				fes := fieldErrors(t, err)
				if len(fes) != 1 || fes[0].Code != "unknown" || fes[0].Path != tt.unknown {
					t.Errorf("MakeJSON = %s, %v; want %s unknown", got, err, tt.unknown)
				}
			}
		})
	}
}
